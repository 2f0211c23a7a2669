import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Capability tokens of links the service hands out (the boleto page, the checkout page, the checkout's
 * CSRF token): the first 32 base64url characters of HMAC-SHA256(key, text), where `text` names the
 * purpose and the resource (`boleto:<reference>`, `checkout-page:<reference>`…), so a token of one
 * purpose never opens another.
 */
export function linkToken(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url').slice(0, 32);
}

/** Whether `token` is the link token of `text`, compared in constant time. */
export function linkTokenMatches(key: Buffer, text: string, token: string): boolean {
  const expected = Buffer.from(linkToken(key, text));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
