import { hashSecretKey, secretKeyMatches } from '../../domain/auth/secret-hash';
import { signToken } from '../../domain/auth/token';
import { UnauthorizedError } from '../../domain/errors';
import type { ApiKeyStore } from '../../ports/api-keys';

const UNKNOWN_KEY_HASH = hashSecretKey('no such key');

export type TokenPorts = { keys: ApiKeyStore; signingKey: () => Promise<Buffer>; ttlSeconds: number };

/**
 * POST /api/auth: a public and secret key pair → a signed Bearer token of the key's version, valid
 * `ttlSeconds` from `issuedAt`. Unknown key or wrong secret: the same 401, after the same comparison
 * (timing does not tell which public keys exist).
 */
export async function issueToken(ports: TokenPorts, credentials: { publicKey: string; secretKey: string }, issuedAt: number) {
  const issued = await ports.keys.byPublicKey(credentials.publicKey);
  const matches = secretKeyMatches(credentials.secretKey, issued?.secretHash ?? UNKNOWN_KEY_HASH);
  if (!issued || !matches) throw new UnauthorizedError('Invalid public or secret key');
  const claims = { accountId: issued.accountId, keyVersion: issued.keyVersion, issuedAt, expiresAt: issuedAt + ports.ttlSeconds };
  return { token: signToken(claims, await ports.signingKey()), token_type: 'Bearer' as const, expires_in: ports.ttlSeconds };
}
