import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { issuedKeyPairOf } from '../../shared/auth/basic';
import { hashSecretKey, secretKeyMatches } from '../../shared/auth/secret-hash';
import { signToken } from '../../shared/auth/token';
import { unixSeconds } from '../../shared/clock';
import { UnauthorizedError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { authRoutes as routes } from '../../shared/http/route-table/auth';
import { keys } from '../../shared/adapters/dynamo/keys';

const UNKNOWN_KEY_HASH = hashSecretKey('no such key');

/** POST /api/auth: public + secret key (HTTP Basic) → a signed Bearer token (spec 4.2, 5). */
export const handler = httpHandler(routes.authToken, async ({ event, runtime, now }) => {
  // A key of another shape than the issued ones (PUB- + 32, SEC- + 48) is refused before any read.
  const credentials = issuedKeyPairOf(event.headers?.authorization);
  const { config, db } = runtime;
  const found = await db.send(new GetCommand({ TableName: config.tableName, Key: keys.publicKey(credentials.publicKey), ConsistentRead: true }));
  const record = found.Item;
  // Compare even for an unknown public key, so timing does not tell which keys exist.
  const matches = secretKeyMatches(credentials.secretKey, typeof record?.secretHash === 'string' ? record.secretHash : UNKNOWN_KEY_HASH);
  if (!record || !matches) throw new UnauthorizedError('Invalid public or secret key');
  const issuedAt = unixSeconds(now);
  const token = signToken(
    { accountId: String(record.accountId), keyVersion: Number(record.kv), issuedAt, expiresAt: issuedAt + config.tokenTtlSeconds },
    (await runtime.serviceKeys()).tokenSigning,
  );
  return { status: 200, body: { success: { token, token_type: 'Bearer', expires_in: config.tokenTtlSeconds } } };
});
