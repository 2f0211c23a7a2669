/**
 * The checkout page's link (its capability token, keyed with the service's link key) and the checkout
 * a link names, apart from page-answer.ts: the status route polls it without rendering a page (nor
 * bundling the page, its Pix block and the QR encoder).
 */
import { DomainError } from '../../domain/errors';
import { checkoutByReference } from '../../wiring/lookups';
import { linkToken, linkTokenMatches } from '../../platform/crypto/link-token';
import { CHECKOUT_REFERENCE_SHAPE } from '../../domain/checkout-record';
import type { Runtime } from '../../wiring/runtime';
import type { Checkout } from '../../domain/checkout';

/** The page link's token: only who received the 303 (the payer's browser) knows the page. */
export function checkoutPageToken(reference: string, key: Buffer): string {
  return linkToken(key, `checkout-page:${reference}`);
}

export function checkoutPageTokenMatches(reference: string, token: string, key: Buffer): boolean {
  return CHECKOUT_REFERENCE_SHAPE.test(reference) && linkTokenMatches(key, `checkout-page:${reference}`, token);
}

export function checkoutPagePath(reference: string, key: Buffer): string {
  return `/checkout/${reference}/${checkoutPageToken(reference, key)}`;
}

/** The checkout a page link names, or 404 (unknown reference or wrong token: the same answer, nothing to probe). */
export async function checkoutOfLink(runtime: Runtime, params: { reference: string; token: string }): Promise<Checkout> {
  const { boletoLinks } = await runtime.serviceKeys();
  const checkout = checkoutPageTokenMatches(params.reference, params.token, boletoLinks) ? await checkoutByReference(runtime, params.reference) : undefined;
  if (!checkout) throw new DomainError('not_found', 'Pagamento não encontrado: confira o link.', 'checkout_not_found');
  return checkout;
}
