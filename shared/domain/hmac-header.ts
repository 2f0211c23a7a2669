import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `t=<unix>,v1=<hex>` signature scheme (Stripe's): HMAC-SHA256 of "<t>.<raw body>" keyed with
 * the whole secret string. Used for outgoing webhooks (spec 6.3) and for provider notifications.
 */
export function signatureHeader(rawBody: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * Checks a signature header against the raw body: well-formed, timestamp within `toleranceSeconds`
 * of now (either way), and one of its v1 values equal to ours (constant-time comparison).
 */
export function checkSignatureHeader(rawBody: string, header: string | undefined, secret: string, nowSeconds: number, toleranceSeconds = 300): SignatureCheck {
  if (!header) return { valid: false, reason: 'malformed' };
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v !== undefined && /^[0-9a-f]{64}$/.test(v)).map(([, v]) => v as string);
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return { valid: false, reason: 'malformed' };
  const timestamp = Number(t);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { valid: false, reason: 'stale' };
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex'), 'utf8');
  const matches = signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'mismatch' };
}
