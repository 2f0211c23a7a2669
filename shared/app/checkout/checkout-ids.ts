import { linkToken } from '../../platform/crypto/link-token';
import { randomString } from '../../platform/ids';
import { CHECKOUT_REFERENCE_ALPHABET } from '../../domain/checkout-record';

/**
 * What opening a checkout needs beyond the rules (shared/domain/checkout-record.ts): randomness
 * (the reference) and a keyed hash (the sale key), as shared/platform/invoice-references.ts is for invoices.
 */

/** `CHK-` and eight characters without look-alikes (32^8 ≈ 10^12). */
export function newCheckoutReference(): string {
  return `CHK-${randomString(8, CHECKOUT_REFERENCE_ALPHABET)}`;
}

/**
 * A sale under a tx_ref of an account without signed forms (issue 31): anyone who knows the public key
 * can post a form, so a tx_ref cannot be reserved by its first post (a stranger could take it before
 * the real payer). Each distinct sale (what the form describes: amount, quantity, payer, product, the
 * callback) gets its own checkout under the tx_ref; the same sale posted again finds its own. The key
 * is a keyed hash of the sale (the link key, its own purpose): it names no field.
 */
export function saleKey(sale: Readonly<Record<string, string | number | undefined>>, key: Buffer): string {
  const canonical = Object.keys(sale)
    .sort()
    .map((name) => `${name}=${JSON.stringify(sale[name] ?? null)}`)
    .join('&');
  return linkToken(key, `checkout-sale:${canonical}`);
}
