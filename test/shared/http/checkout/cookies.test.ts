import { describe, expect, it } from 'vitest';
import {
  cookieValue,
  CSRF_COOKIE_SHAPE,
  csrfCookieIsOurs,
  csrfSetCookie,
  csrfToken,
  csrfTokenMatches,
  newCsrfCookieValue,
} from '../../../../shared/http/checkout/cookies';

const KEY = Buffer.alloc(32, 7);
const checkout = { reference: 'CHK-ABCDEFGH' };

describe("the card form's CSRF cookie and token", () => {
  it('the CSRF token is bound to the checkout and to the cookie', () => {
    const cookie = newCsrfCookieValue(checkout.reference, KEY);
    expect(cookie).toMatch(CSRF_COOKIE_SHAPE);
    const token = csrfToken(checkout.reference, cookie, KEY);
    expect(csrfTokenMatches(checkout.reference, cookie, token, KEY)).toBe(true);
    expect(csrfTokenMatches(checkout.reference, newCsrfCookieValue(checkout.reference, KEY), token, KEY)).toBe(false);
    expect(csrfTokenMatches('CHK-ZZZZZZZZ', cookie, token, KEY)).toBe(false);
    expect(csrfTokenMatches(checkout.reference, undefined, token, KEY)).toBe(false);
    expect(csrfTokenMatches(checkout.reference, cookie, undefined, KEY)).toBe(false);
    expect(csrfTokenMatches(checkout.reference, 'short', csrfToken(checkout.reference, 'short', KEY), KEY)).toBe(false);
  });

  it("the CSRF cookie's value is the server's: a value the client chose, or one issued for another checkout or key, is not ours", () => {
    const ours = newCsrfCookieValue(checkout.reference, KEY);
    expect(csrfCookieIsOurs(checkout.reference, ours, KEY)).toBe(true);
    const chosen = `${'a'.repeat(32)}.${'b'.repeat(32)}`;
    expect(csrfCookieIsOurs(checkout.reference, chosen, KEY)).toBe(false);
    // A chosen value with a token computed for it is still refused: the cookie itself is not signed.
    expect(csrfTokenMatches(checkout.reference, chosen, csrfToken(checkout.reference, chosen, KEY), KEY)).toBe(false);
    expect(csrfCookieIsOurs('CHK-ZZZZZZZZ', ours, KEY)).toBe(false);
    expect(csrfCookieIsOurs(checkout.reference, ours, Buffer.alloc(32, 9))).toBe(false);
    expect(csrfCookieIsOurs(checkout.reference, 'x'.repeat(32), KEY)).toBe(false);
  });

  it('reads the cookie among others and sets it HttpOnly, SameSite=Strict, on this checkout only (Secure over https)', () => {
    expect(cookieValue(['a=1', ' chk_csrf=abc ', 'b=2'], 'chk_csrf')).toBe('abc');
    expect(cookieValue(['chk_csrfx=1'], 'chk_csrf')).toBeUndefined();
    expect(cookieValue(undefined, 'chk_csrf')).toBeUndefined();
    const set = csrfSetCookie(checkout.reference, 'v', false);
    expect(set).toContain(`Path=/checkout/${checkout.reference}`);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(set).not.toContain('Secure');
    expect(csrfSetCookie(checkout.reference, 'v', true)).toContain('; Secure');
  });
});
