import { createHmac } from 'node:crypto';

/** JSON with object keys sorted at every level, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a key is bound to: the route and the request body. Only this keyed hash is stored, never the
 * body; keyed (HMAC with a key derived from the master key) so that a body holding a card number
 * cannot be recovered from it by guessing.
 */
export function requestFingerprint(routeId: string, body: unknown, key: Buffer): string {
  return createHmac('sha256', key)
    .update(`${routeId}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}
