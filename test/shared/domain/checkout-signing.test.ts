import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkoutSigningOf, checkoutSigningSecret } from '../../../shared/domain/checkout-signing';
import { deriveServiceKeys } from '../../../shared/adapters/secrets/master-key';

const key = Buffer.alloc(32, 7);
const SHAPE = /^cks_[A-Za-z0-9_-]{43}$/;

describe('checkoutSigningSecret', () => {
  it('is cks_ and the unpadded base64url HMAC-SHA256 of "<account>:<version>"', () => {
    const secret = checkoutSigningSecret(key, 'acct_abc', 1);
    expect(secret).toMatch(SHAPE);
    expect(secret).toHaveLength(47);
    expect(secret).not.toContain('=');
    const expected = createHmac('sha256', key).update('acct_abc:1').digest('base64url');
    expect(secret).toBe(`cks_${expected}`);
  });

  it('is the same for the same key, account and version (never stored: derived again when needed)', () => {
    expect(checkoutSigningSecret(key, 'acct_abc', 3)).toBe(checkoutSigningSecret(Buffer.alloc(32, 7), 'acct_abc', 3));
  });

  it('changes with the version (a rotation issues a new secret)', () => {
    const secrets = new Set([1, 2, 3, 10].map((v) => checkoutSigningSecret(key, 'acct_abc', v)));
    expect(secrets.size).toBe(4);
  });

  it('differs between accounts, including ones whose id and version run together', () => {
    expect(checkoutSigningSecret(key, 'acct_abc', 1)).not.toBe(checkoutSigningSecret(key, 'acct_abd', 1));
    expect(checkoutSigningSecret(key, 'acct_1', 11)).not.toBe(checkoutSigningSecret(key, 'acct_11', 1));
  });

  it('differs with the key (another master key, or another purpose)', () => {
    expect(checkoutSigningSecret(key, 'acct_abc', 1)).not.toBe(checkoutSigningSecret(Buffer.alloc(32, 8), 'acct_abc', 1));
  });

  it('refuses version 0 (no secret issued) and versions that are not positive integers', () => {
    for (const version of [0, -1, 1.5, Number.NaN]) expect(() => checkoutSigningSecret(key, 'acct_abc', version), String(version)).toThrow(/version/);
  });

  it('is keyed with the master-derived checkoutSigning key, distinct from every other purpose', () => {
    const keys = deriveServiceKeys(JSON.stringify({ masterKey: 'm'.repeat(40) }));
    expect(keys.checkoutSigning).toHaveLength(32);
    const others = [keys.tokenSigning, keys.personalData, keys.boletoLinks, keys.idempotency, keys.idempotentAnswers, keys.webhookSecrets];
    for (const other of others) expect(keys.checkoutSigning.equals(other)).toBe(false);
    const again = deriveServiceKeys(JSON.stringify({ masterKey: 'm'.repeat(40) }));
    expect(keys.checkoutSigning.equals(again.checkoutSigning)).toBe(true);
  });
});

describe('checkoutSigningOf', () => {
  it('defaults to not required and no secret issued (version 0)', () => {
    expect(checkoutSigningOf({})).toEqual({ required: false, version: 0 });
    expect(checkoutSigningOf({ name: 'Loja', methods: ['pix'] })).toEqual({ required: false, version: 0 });
  });

  it('reads checkoutSigningRequired and checkoutSigningVersion', () => {
    expect(checkoutSigningOf({ checkoutSigningRequired: true, checkoutSigningVersion: 2 })).toEqual({ required: true, version: 2 });
    expect(checkoutSigningOf({ checkoutSigningRequired: false, checkoutSigningVersion: 5 })).toEqual({ required: false, version: 5 });
  });

  it('takes only a real boolean true as required, and only a positive integer as a version', () => {
    expect(checkoutSigningOf({ checkoutSigningRequired: 'true', checkoutSigningVersion: '2' })).toEqual({ required: false, version: 0 });
    expect(checkoutSigningOf({ checkoutSigningRequired: 1, checkoutSigningVersion: -3 })).toEqual({ required: false, version: 0 });
    expect(checkoutSigningOf({ checkoutSigningVersion: 1.5 }).version).toBe(0);
  });
});
