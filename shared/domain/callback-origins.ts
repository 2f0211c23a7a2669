/**
 * The callback origins an account allows for its hosted checkouts (issue 31): when the list is not
 * empty, a checkout's `callback_url` must be on one of them, so a stranger who knows the public key
 * cannot send the merchant's payers elsewhere after they pay. Set by the operator CLI (`account
 * callback-origins`), later by the merchant panel. Values are origins in their canonical form.
 */

/** At most this many origins per account. */
export const MAX_CALLBACK_ORIGINS = 20;

/** One origin as the operator gives it, checked: https (http only for localhost in local runs), canonical, nothing but the origin. */
export function parseCallbackOrigin(value: string, allowLocal: boolean): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.origin !== value) return undefined;
  if (url.protocol === 'https:') return url.origin;
  const local = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  return allowLocal && local ? url.origin : undefined;
}

/** A comma-separated list (or `none` for no restriction) → the origins, or the first value refused. */
export function parseCallbackOrigins(list: string, allowLocal: boolean): { ok: true; origins: string[] } | { ok: false; refused: string } {
  if (list.trim() === 'none') return { ok: true, origins: [] };
  const values = list.split(',').map((value) => value.trim());
  const origins: string[] = [];
  for (const value of values) {
    const origin = parseCallbackOrigin(value, allowLocal);
    if (origin === undefined) return { ok: false, refused: value };
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length === 0 || origins.length > MAX_CALLBACK_ORIGINS) return { ok: false, refused: list };
  return { ok: true, origins };
}

/** The origins an account item allows (empty: any https callback). */
export function callbackOriginsOf(account: Record<string, unknown>): string[] {
  const stored = account.callbackOrigins;
  return Array.isArray(stored) ? stored.filter((origin): origin is string => typeof origin === 'string') : [];
}

/** Whether a (canonical) callback URL may be used by this account's checkouts. */
export function callbackAllowed(callbackUrl: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || (URL.canParse(callbackUrl) && allowed.includes(new URL(callbackUrl).origin));
}
