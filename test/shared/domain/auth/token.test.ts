import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerTokenFrom, deriveKey, signToken, verifyToken, type TokenClaims } from '../../../../shared/domain/auth/token';
import { UnauthorizedError } from '../../../../shared/domain/errors';

const MASTER = 'test-master-key-material-0123456789abcdef';
const key = deriveKey(MASTER, 'token-signing/v1');
const NOW = 1_791_979_200;
const claims: TokenClaims = { accountId: 'acct_abcdefghij0123456789', keyVersion: 3, issuedAt: NOW - 60, expiresAt: NOW + 3600 };

/** Builds `pgt_<payload>.<signature>` by hand, with an HMAC computed here, independently of the module. */
function handMade(payloadJson: string, signingKey: Buffer = key): string {
  const payload = Buffer.from(payloadJson, 'utf8').toString('base64url');
  const signature = createHmac('sha256', signingKey).update(payload).digest('base64url');
  return `pgt_${payload}.${signature}`;
}

function splitToken(token: string): { payload: string; signature: string } {
  const match = /^pgt_([^.]+)\.(.+)$/.exec(token);
  if (!match?.[1] || !match[2]) throw new Error(`not a token: ${token}`);
  return { payload: match[1], signature: match[2] };
}

/** Asserts that fn throws an UnauthorizedError (401). */
function expect401(fn: () => unknown): UnauthorizedError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(UnauthorizedError);
  expect((caught as UnauthorizedError).kind).toBe('unauthorized');
  return caught as UnauthorizedError;
}

/** Flips one base64url character to another valid one. */
function flip(text: string, index: number): string {
  const c = text.charAt(index);
  return text.slice(0, index) + (c === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('deriveKey', () => {
  it('gives 32 bytes equal to HKDF-SHA256 with the purpose in the info', () => {
    expect(key).toHaveLength(32);
    const expected = Buffer.from(hkdfSync('sha256', Buffer.from(MASTER, 'utf8'), Buffer.alloc(0), 'payment-gateway/token-signing/v1', 32));
    expect(key.equals(expected)).toBe(true);
  });

  it('differs per purpose and per master key, and is stable for the same inputs', () => {
    const other = deriveKey(MASTER, 'webhook-signing/v1');
    expect(other).toHaveLength(32);
    expect(other.equals(key)).toBe(false);
    expect(deriveKey(`${MASTER}x`, 'token-signing/v1').equals(key)).toBe(false);
    expect(deriveKey(MASTER, 'token-signing/v1').equals(key)).toBe(true);
  });
});

describe('signToken / verifyToken', () => {
  it('roundtrips the claims', () => {
    const token = signToken(claims, key);
    expect(verifyToken(token, key, NOW)).toEqual(claims);
  });

  it('signs the base64url payload with HMAC-SHA256 of the key', () => {
    const token = signToken(claims, key);
    expect(token.startsWith('pgt_')).toBe(true);
    const { payload, signature } = splitToken(token);
    expect(signature).toBe(createHmac('sha256', key).update(payload).digest('base64url'));
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(Object.values(decoded)).toEqual(expect.arrayContaining([claims.accountId, claims.keyVersion, claims.issuedAt, claims.expiresAt]));
  });

  it('accepts a token whose signature was computed independently', () => {
    const token = handMade(JSON.stringify({ a: 'acct_x', v: 1, i: NOW, e: NOW + 10 }));
    expect(verifyToken(token, key, NOW)).toEqual({ accountId: 'acct_x', keyVersion: 1, issuedAt: NOW, expiresAt: NOW + 10 });
  });

  it('rejects a tampered payload (claims changed, signature kept) with 401', () => {
    const token = signToken(claims, key);
    const { signature } = splitToken(token);
    const forged = Buffer.from(JSON.stringify({ a: 'acct_someoneelse00000000', v: 3, i: claims.issuedAt, e: claims.expiresAt })).toString('base64url');
    expect401(() => verifyToken(`pgt_${forged}.${signature}`, key, NOW));
  });

  it('rejects a payload with one character flipped with 401', () => {
    const token = signToken(claims, key);
    const { payload, signature } = splitToken(token);
    expect401(() => verifyToken(`pgt_${flip(payload, 5)}.${signature}`, key, NOW));
  });

  it('rejects a tampered signature with 401', () => {
    const token = signToken(claims, key);
    const { payload, signature } = splitToken(token);
    expect401(() => verifyToken(`pgt_${payload}.${flip(signature, 0)}`, key, NOW));
    expect401(() => verifyToken(`pgt_${payload}.${signature.slice(0, -1)}`, key, NOW));
    expect401(() => verifyToken(`pgt_${payload}.${signature}A`, key, NOW));
  });

  it('rejects a token signed with another key with 401', () => {
    const token = signToken(claims, deriveKey('another-master-key-material-000000000', 'token-signing/v1'));
    expect401(() => verifyToken(token, key, NOW));
    expect401(() => verifyToken(signToken(claims, deriveKey(MASTER, 'other-purpose')), key, NOW));
  });

  it('rejects an expired token (expiresAt <= now) with 401 and accepts it one second before', () => {
    const token = signToken(claims, key);
    expect(verifyToken(token, key, claims.expiresAt - 1).expiresAt).toBe(claims.expiresAt);
    expect401(() => verifyToken(token, key, claims.expiresAt));
    expect401(() => verifyToken(token, key, claims.expiresAt + 1));
    const error = expect401(() => verifyToken(token, key, claims.expiresAt + 86_400));
    expect(error.code).toBe('unauthorized');
  });

  it.each([
    ['empty', ''],
    ['no prefix', 'abc.def'],
    ['prefix only', 'pgt_'],
    ['no signature', 'pgt_eyJhIjoxfQ'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXI'],
    ['spaces', 'pgt_ abc . def'],
    ['unicode', 'pgt_çãõ.ü'],
    ['random words', 'not a token at all'],
  ])('rejects garbage (%s) with 401', (_name, garbage) => {
    expect401(() => verifyToken(garbage, key, NOW));
  });

  it('rejects a correctly signed payload that is not JSON with 401', () => {
    expect401(() => verifyToken(handMade('this is not json'), key, NOW));
  });

  it('rejects a correctly signed payload with missing or mistyped claims with 401', () => {
    expect401(() => verifyToken(handMade(JSON.stringify({ a: 'acct_x', v: 1, i: NOW })), key, NOW));
    expect401(() => verifyToken(handMade(JSON.stringify({ a: 1, v: 1, i: NOW, e: NOW + 10 })), key, NOW));
    expect401(() => verifyToken(handMade(JSON.stringify({ a: 'acct_x', v: '1', i: NOW, e: NOW + 10 })), key, NOW));
    expect401(() => verifyToken(handMade(JSON.stringify({ a: 'acct_x', v: 1, i: NOW, e: String(NOW + 10) })), key, NOW));
    expect401(() => verifyToken(handMade('[]'), key, NOW));
  });

  // Regression: JSON.parse('null') yields null, and reading `claims.a` from it threw a TypeError (a 500) instead of a 401.
  it('rejects a correctly signed JSON null payload with 401', () => {
    expect401(() => verifyToken(handMade('null'), key, NOW));
  });
});

describe('bearerTokenFrom', () => {
  it('returns the token of a Bearer header', () => {
    expect(bearerTokenFrom('Bearer pgt_abc.def')).toBe('pgt_abc.def');
  });

  it('is case-insensitive on the scheme and tolerates extra spaces', () => {
    expect(bearerTokenFrom('bearer  tok')).toBe('tok');
    expect(bearerTokenFrom('BEARER tok ')).toBe('tok');
    expect(bearerTokenFrom('Bearer\ttok')).toBe('tok');
  });

  it('gives 401 when the header is missing or empty', () => {
    expect401(() => bearerTokenFrom(undefined));
    expect401(() => bearerTokenFrom(''));
  });

  it.each(['Basic x', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearertok', 'Bearer a b', 'Token tok'])('gives 401 for %j', (header) => {
    expect401(() => bearerTokenFrom(header));
  });
});
