import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSecretKey, secretKeyMatches } from '../../../../shared/domain/auth/secret-hash';

const SECRET = 'SEC-FAKEfake0000EXAMPLEexample0000NOTAREALSECRETKEY0';

describe('hashSecretKey', () => {
  it('is a SHA-256 hex digest, not the key itself', () => {
    const hash = hashSecretKey(SECRET);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(SECRET);
    expect(hash).toBe(createHash('sha256').update(SECRET, 'utf8').digest('hex'));
  });

  it('differs for different keys and is stable for the same key', () => {
    expect(hashSecretKey(SECRET)).toBe(hashSecretKey(SECRET));
    expect(hashSecretKey(SECRET)).not.toBe(hashSecretKey(`${SECRET}x`));
  });
});

describe('secretKeyMatches', () => {
  const stored = hashSecretKey(SECRET);

  it('matches the right key only', () => {
    expect(secretKeyMatches(SECRET, stored)).toBe(true);
    expect(secretKeyMatches(`${SECRET} `, stored)).toBe(false);
    expect(secretKeyMatches(SECRET.toLowerCase(), stored)).toBe(false);
    expect(secretKeyMatches('', stored)).toBe(false);
  });

  it('does not match when given the stored hash as the key', () => {
    expect(secretKeyMatches(stored, stored)).toBe(false);
  });

  it('is false for a malformed stored hash', () => {
    expect(secretKeyMatches(SECRET, '')).toBe(false);
    expect(secretKeyMatches(SECRET, 'not-hex')).toBe(false);
    expect(secretKeyMatches(SECRET, stored.slice(0, 32))).toBe(false);
  });
});
