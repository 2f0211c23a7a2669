import { isUtf8 } from 'node:buffer';
import { checkSignatureHeader, signatureHeader } from './hmac-header';

/**
 * Webhook signatures (spec 6.3, 6.4): the `Service-Signature` header is `t=<unix>,v1=<hex>`, the hex
 * being HMAC-SHA256 of `<t>.<raw body>` keyed with the whole `whsec_` secret.
 */

/** Replay window of the spec: |now − t| must not exceed 300 seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * For merchants' receivers: true only when the header is well formed, its timestamp is within
 * `toleranceSeconds` of now in either direction, and one of its v1 values is the HMAC of the raw
 * body (constant-time comparison). A Buffer body must be valid UTF-8 (it is signed as text); a
 * body with invalid bytes is refused rather than decoded lossily.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (secret.length === 0) return false; // a missing secret must not make every HMAC-with-empty-key pass
  if (typeof rawBody !== 'string' && !isUtf8(rawBody)) return false;
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  return checkSignatureHeader(body, header, secret, nowSeconds, toleranceSeconds).valid;
}

/** The `Service-Signature` header value the service sends for this body at `timestamp` (Unix seconds). */
export function signWebhookPayload(rawBody: string, secret: string, timestamp: number): string {
  if (secret.length === 0) throw new Error('webhook secret is empty');
  if (!Number.isInteger(timestamp) || timestamp < 0) throw new RangeError(`timestamp must be whole Unix seconds, got ${timestamp}`);
  return signatureHeader(rawBody, secret, timestamp);
}
