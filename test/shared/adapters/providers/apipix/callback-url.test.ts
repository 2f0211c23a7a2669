import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linkToken } from '../../../../../shared/platform/crypto/link-token';
import { pixCallbackToken, pixCallbackTokenMatches, pixCallbackUrl } from '../../../../../shared/adapters/providers/apipix/callback-url';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);

describe('pixCallbackToken', () => {
  it('is stable for a key and a provider', () => {
    const token = pixCallbackToken(key, 'apipix');
    expect(token).toBe(pixCallbackToken(Buffer.from(key), 'apipix'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('differs by provider and by key', () => {
    const token = pixCallbackToken(key, 'apipix');
    expect(pixCallbackToken(key, 'apipix2')).not.toBe(token);
    expect(pixCallbackToken(key, 'simulated')).not.toBe(token);
    expect(pixCallbackToken(otherKey, 'apipix')).not.toBe(token);
    for (let i = 0; i < 20; i += 1) expect(pixCallbackToken(randomBytes(32), 'apipix')).not.toBe(token);
  });

  it('is not the token of another purpose under the same key', () => {
    expect(pixCallbackToken(key, 'apipix')).not.toBe(linkToken(key, 'apipix'));
    expect(pixCallbackToken(key, 'apipix')).not.toBe(linkToken(key, 'boleto:apipix'));
  });
});

describe('pixCallbackTokenMatches', () => {
  it('matches the token of the same key and provider only', () => {
    const token = pixCallbackToken(key, 'apipix');
    expect(pixCallbackTokenMatches(key, 'apipix', token)).toBe(true);
    expect(pixCallbackTokenMatches(key, 'other', token)).toBe(false);
    expect(pixCallbackTokenMatches(otherKey, 'apipix', token)).toBe(false);
  });

  it('refuses altered, shortened, lengthened and empty tokens', () => {
    const token = pixCallbackToken(key, 'apipix');
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [flipped, token.slice(0, -1), `${token}A`, '', token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase()]) {
      expect(pixCallbackTokenMatches(key, 'apipix', wrong), wrong).toBe(false);
    }
  });

  it('does not throw on multi-byte text of the same character count', () => {
    const token = pixCallbackToken(key, 'apipix');
    expect(pixCallbackTokenMatches(key, 'apipix', 'é'.repeat(token.length))).toBe(false);
  });
});

describe('pixCallbackUrl', () => {
  it('is <base>/provider/<name>/notifications/<token>', () => {
    const token = pixCallbackToken(key, 'apipix');
    expect(pixCallbackUrl('https://pay.example.com', key, 'apipix')).toBe(`https://pay.example.com/provider/apipix/notifications/${token}`);
    expect(pixCallbackUrl('https://pay.example.com/api', key, 'apipix')).toBe(`https://pay.example.com/api/provider/apipix/notifications/${token}`);
  });

  it('trims the trailing slashes of the base', () => {
    const token = pixCallbackToken(key, 'apipix');
    for (const base of ['https://pay.example.com/', 'https://pay.example.com///']) {
      expect(pixCallbackUrl(base, key, 'apipix'), base).toBe(`https://pay.example.com/provider/apipix/notifications/${token}`);
    }
  });

  it('carries a token that matches for its provider', () => {
    const url = pixCallbackUrl('https://pay.example.com', key, 'psp2');
    const token = url.split('/').at(-1) ?? '';
    expect(url).toContain('/provider/psp2/notifications/');
    expect(pixCallbackTokenMatches(key, 'psp2', token)).toBe(true);
    expect(pixCallbackTokenMatches(key, 'apipix', token)).toBe(false);
  });
});
