import { describe, expect, it } from 'vitest';
import { callbackAllowed, callbackOriginsOf, parseCallbackOrigin, parseCallbackOrigins } from '../../../shared/domain/callback-origins';

describe('callback origins an account allows', () => {
  it('takes https origins in canonical form only (no path, no userinfo, lower case, punycode)', () => {
    expect(parseCallbackOrigin('https://shop.example', false)).toBe('https://shop.example');
    expect(parseCallbackOrigin('https://shop.example:8443', false)).toBe('https://shop.example:8443');
    for (const bad of [
      'https://shop.example/',
      'https://shop.example/paid',
      'http://shop.example',
      'https://SHOP.example',
      'https://u@shop.example',
      'https://shop.\u0435xample',
      'shop.example',
    ]) {
      expect(parseCallbackOrigin(bad, false), bad).toBeUndefined();
    }
    expect(parseCallbackOrigin('http://localhost:3000', false)).toBeUndefined();
    expect(parseCallbackOrigin('http://localhost:3000', true)).toBe('http://localhost:3000');
  });

  it('parses a comma-separated list, "none" for no restriction, and names the value it refuses', () => {
    expect(parseCallbackOrigins('https://a.example, https://b.example,https://a.example', false)).toEqual({
      ok: true,
      origins: ['https://a.example', 'https://b.example'],
    });
    expect(parseCallbackOrigins('none', false)).toEqual({ ok: true, origins: [] });
    expect(parseCallbackOrigins('https://a.example,https://b.example/x', false)).toEqual({ ok: false, refused: 'https://b.example/x' });
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`).join(',');
    expect(parseCallbackOrigins(many, false).ok).toBe(false);
  });

  it('allows any callback without a list, and only the listed origins with one', () => {
    expect(callbackAllowed('https://anywhere.example/x', [])).toBe(true);
    expect(callbackAllowed('https://shop.example/paid', ['https://shop.example'])).toBe(true);
    expect(callbackAllowed('https://evil.example/paid', ['https://shop.example'])).toBe(false);
    expect(callbackAllowed('https://shop.example.evil.example/', ['https://shop.example'])).toBe(false);
    expect(callbackOriginsOf({ callbackOrigins: ['https://a.example', 3] })).toEqual(['https://a.example']);
    expect(callbackOriginsOf({})).toEqual([]);
  });
});
