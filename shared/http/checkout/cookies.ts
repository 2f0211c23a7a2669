import { randomBytes } from 'node:crypto';
import { linkToken, linkTokenMatches } from '../../platform/crypto/link-token';

/**
 * The card form's CSRF cookie and token (keyed with the service's link key, separated by purpose), and
 * reading a cookie among the request's: request and response plumbing (issue 45: from
 * shared/checkout/record.ts).
 */

/**
 * The CSRF cookie's name and value. The value is the server's, signed (issue 31): a random nonce and
 * its link token for this checkout, `<32 characters>.<32 characters>`; a value the browser brings that
 * this server did not issue for this checkout is replaced, never adopted.
 */
export const CSRF_COOKIE = 'chk_csrf';
export const CSRF_COOKIE_SHAPE = /^[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{32}$/;

export function newCsrfCookieValue(reference: string, key: Buffer): string {
  const nonce = randomBytes(24).toString('base64url');
  return `${nonce}.${linkToken(key, `checkout-csrf-cookie:${reference}:${nonce}`)}`;
}

/** Whether a cookie value was issued by this server for this checkout. */
export function csrfCookieIsOurs(reference: string, value: string | undefined, key: Buffer): value is string {
  if (value === undefined || !CSRF_COOKIE_SHAPE.test(value)) return false;
  const [nonce = '', mac = ''] = value.split('.');
  return linkTokenMatches(key, `checkout-csrf-cookie:${reference}:${nonce}`, mac);
}

/** The card form's hidden token: bound to the checkout and to the browser's cookie (double submit, signed). */
export function csrfToken(reference: string, cookieValue: string, key: Buffer): string {
  return linkToken(key, `checkout-csrf:${reference}:${cookieValue}`);
}

export function csrfTokenMatches(reference: string, cookieValue: string | undefined, token: string | undefined, key: Buffer): boolean {
  if (token === undefined || !csrfCookieIsOurs(reference, cookieValue, key)) return false;
  return linkTokenMatches(key, `checkout-csrf:${reference}:${cookieValue}`, token);
}

/** The cookie's value among the request's cookies (API Gateway v2 `cookies`: "name=value" strings). */
export function cookieValue(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const cookie of cookies ?? []) {
    const at = cookie.indexOf('=');
    if (at > 0 && cookie.slice(0, at).trim() === name) return cookie.slice(at + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie of the CSRF cookie: this checkout's path only, no script access, never sent cross-site. */
export function csrfSetCookie(reference: string, value: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${value}; Path=/checkout/${reference}; HttpOnly; SameSite=Strict; Max-Age=86400${secure ? '; Secure' : ''}`;
}
