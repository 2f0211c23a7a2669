import { BadRequestError, UnauthorizedError } from '../errors';

export type KeyPair = { publicKey: string; secretKey: string };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_ENCODED_LENGTH = 256;

/**
 * Parses `Authorization: Basic base64(public:secret)`.
 * Missing header or another scheme → 401 (spec 5.4); a Basic header that is not base64 or has no colon → 400.
 */
export function parseBasicAuthorization(header: string | undefined): KeyPair {
  if (!header) throw new UnauthorizedError('Missing Authorization header: send `Authorization: Basic base64(public_key:secret_key)`');
  const match = /^Basic(?:\s+(.*))?$/i.exec(header.trim());
  if (!match) throw new UnauthorizedError('Authorization must use the Basic scheme with your public and secret keys');
  const encoded = (match[1] ?? '').trim();
  // Our keys (PUB- + 32, SEC- + 48) encode in about 120 characters; a longer value names no key, and
  // would exceed DynamoDB's 2,048-byte key limit on the lookup.
  if (encoded.length > MAX_ENCODED_LENGTH) throw new UnauthorizedError('Invalid public or secret key');
  if (encoded.length === 0 || encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
    throw new BadRequestError('Malformed Basic credentials: expected base64(public_key:secret_key)', 'malformed_authorization');
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new BadRequestError('Malformed Basic credentials: expected base64(public_key:secret_key)', 'malformed_authorization');
  return { publicKey: decoded.slice(0, colon), secretKey: decoded.slice(colon + 1) };
}

/** The shapes of the keys we issue (shared/platform/ids.ts): PUB- and 32 letters or digits, SEC- and 48. */
export const PUBLIC_KEY_SHAPE = /^PUB-[A-Za-z0-9]{32}$/;
export const SECRET_KEY_SHAPE = /^SEC-[A-Za-z0-9]{48}$/;

/**
 * The key pair of a Basic header (as parseBasicAuthorization) when both keys have the shapes we issue;
 * any other pair names no key: 401, the same answer as an unknown key, before the table is read (so no
 * value, however long or strange, reaches a DynamoDB key).
 */
export function issuedKeyPairOf(header: string | undefined): KeyPair {
  const pair = parseBasicAuthorization(header);
  if (!PUBLIC_KEY_SHAPE.test(pair.publicKey) || !SECRET_KEY_SHAPE.test(pair.secretKey)) throw new UnauthorizedError('Invalid public or secret key');
  return pair;
}
