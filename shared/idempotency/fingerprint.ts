import { createHash } from 'node:crypto';

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

/** What a key is bound to: the route and the request body. Only the hash is stored, never the body. */
export function requestFingerprint(routeId: string, body: unknown): string {
  return createHash('sha256')
    .update(`${routeId}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}
