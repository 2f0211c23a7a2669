import { randomBytes } from 'node:crypto';
import { cookieValue } from '../../checkout/record';
import { linkToken, linkTokenMatches } from '../../platform/crypto/link-token';
import { SESSION_MAX_MS } from '../../domain/panel/session';

/**
 * The merchant panel's cookies (issue 27): `__Host-` names (Secure, Path=/, no Domain: the browser
 * refuses them otherwise; Chromium takes Secure cookies from http://127.0.0.1 too), HttpOnly,
 * SameSite=Strict. The session cookie carries the session id (the table keeps only its hash); the
 * pre-session cookie carries a random value that the sign-in and enrollment forms' CSRF tokens bind to.
 */
export const SESSION_COOKIE = '__Host-panel_session';
export const PRE_SESSION_COOKIE = '__Host-panel_pre';

const ATTRIBUTES = 'Path=/; Secure; HttpOnly; SameSite=Strict';

export function sessionCookie(sessionId: string): string {
  return `${SESSION_COOKIE}=${sessionId}; ${ATTRIBUTES}; Max-Age=${Math.floor(SESSION_MAX_MS / 1000)}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
}

export function preSessionCookie(value: string): string {
  return `${PRE_SESSION_COOKIE}=${value}; ${ATTRIBUTES}; Max-Age=3600`;
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export function newPreSessionValue(): string {
  return randomBytes(32).toString('base64url');
}

/** A cookie's value among the request's cookies (API Gateway v2 `cookies`), when shaped as ours (43 base64url characters). */
export function panelCookie(cookies: readonly string[] | undefined, name: string): string | undefined {
  const value = cookieValue(cookies, name);
  return value !== undefined && COOKIE_VALUE.test(value) ? value : undefined;
}

/** A form's CSRF token: the HMAC of the cookie it goes with (synchronizer token without storage: only the server can make it). */
export function csrfTokenFor(key: Buffer, cookieValue: string): string {
  return linkToken(key, `panel-csrf:${cookieValue}`);
}

export function csrfTokenMatches(key: Buffer, cookieValue: string | undefined, token: string | null | undefined): boolean {
  return cookieValue !== undefined && typeof token === 'string' && token.length > 0 && linkTokenMatches(key, `panel-csrf:${cookieValue}`, token);
}
