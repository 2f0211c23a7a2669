import { createHmac, timingSafeEqual } from 'node:crypto';

/** The form field that carries the signature; it is the one field left out of the canonical string. */
export const SIGNATURE_FIELD = 'signature';

/**
 * The canonical string of a checkout form (docs/decisions.md, "Hosted checkout (groundwork)"): every
 * field except `signature`, sorted by name (JavaScript's default order: UTF-16 code units, so the same
 * in every language that sorts ASCII bytes), each as `name=value` with name and value encoded by
 * encodeURIComponent (a no-op on our field names), joined with `&`. Empty values are included
 * (`product_name=`), so adding or removing any field changes the string.
 */
export function canonicalForm(fields: Readonly<Record<string, string>>): string {
  return Object.keys(fields)
    .filter((name) => name !== SIGNATURE_FIELD)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(fields[name] ?? '')}`)
    .join('&');
}

/** The form's signature: lower-case hex HMAC-SHA256 of its canonical string, keyed with the whole secret. */
export function signForm(fields: Readonly<Record<string, string>>, secret: string): string {
  return createHmac('sha256', secret).update(canonicalForm(fields), 'utf8').digest('hex');
}

/**
 * Whether the form's `signature` field is the signature of its other fields (constant-time comparison;
 * upper-case hex is accepted). False when the field is missing or not 64 hex digits.
 */
export function verifyFormSignature(fields: Readonly<Record<string, string>>, secret: string): boolean {
  const given = fields[SIGNATURE_FIELD];
  if (given === undefined || !/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = Buffer.from(signForm(fields, secret), 'hex');
  const received = Buffer.from(given, 'hex');
  return expected.length === received.length && timingSafeEqual(expected, received);
}
