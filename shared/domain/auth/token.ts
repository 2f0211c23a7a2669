import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../errors';

/**
 * Bearer tokens are self-contained and HMAC-signed: `pgt_<payload>.<signature>`, both base64url.
 * The payload carries the account and the key version the token was issued under, so checking a
 * token needs no lookup; the per-call rate-limit update compares the key version, which makes a
 * key rotation revoke every older token at once.
 */
export type TokenClaims = { accountId: string; keyVersion: number; issuedAt: number; expiresAt: number };

const PREFIX = 'pgt_';

/** Derives a purpose-bound key from the master key material (HKDF-SHA256). */
export function deriveKey(masterKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), `payment-gateway/${purpose}`, 32));
}

function sign(payload: string, key: Buffer): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export function signToken(claims: TokenClaims, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify({ a: claims.accountId, v: claims.keyVersion, i: claims.issuedAt, e: claims.expiresAt })).toString('base64url');
  return `${PREFIX}${payload}.${sign(payload, key)}`;
}

const TOKEN_SHAPE = /^pgt_([A-Za-z0-9_-]{1,512})\.([A-Za-z0-9_-]{43})$/;

/** Checks shape, signature and expiry; throws a 401 for any failure. */
export function verifyToken(token: string, key: Buffer, nowSeconds: number): TokenClaims {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) throw new UnauthorizedError('Invalid token');
  const [, payload = '', signature = ''] = match;
  const expected = Buffer.from(sign(payload, key), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new UnauthorizedError('Invalid token');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new UnauthorizedError('Invalid token');
  }
  if (typeof decoded !== 'object' || decoded === null) throw new UnauthorizedError('Invalid token');
  const claims = decoded as { a?: unknown; v?: unknown; i?: unknown; e?: unknown };
  if (typeof claims.a !== 'string' || typeof claims.v !== 'number' || typeof claims.i !== 'number' || typeof claims.e !== 'number') {
    throw new UnauthorizedError('Invalid token');
  }
  if (claims.e <= nowSeconds) throw new UnauthorizedError('Token expired: request a new one at POST /api/auth');
  return { accountId: claims.a, keyVersion: claims.v, issuedAt: claims.i, expiresAt: claims.e };
}

/** Extracts the token of an `Authorization: Bearer <token>` header; 401 when missing or not Bearer. */
export function bearerTokenFrom(header: string | undefined): string {
  if (!header) throw new UnauthorizedError('Missing Authorization header: send `Authorization: Bearer <token>`');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new UnauthorizedError('Malformed Authorization header: expected `Bearer <token>`');
  return match[1];
}
