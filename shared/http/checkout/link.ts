/**
 * The checkout a page link names, apart from page-answer.ts: the status route polls it without
 * rendering a page (nor bundling the page, its Pix block and the QR encoder).
 */
import { DomainError } from '../../domain/errors';
import { checkoutByReference } from '../../wiring/lookups';
import { checkoutPageTokenMatches } from '../../checkout/record';
import type { Runtime } from '../../wiring/runtime';
import type { Checkout } from '../../domain/checkout';

/** The checkout a page link names, or 404 (unknown reference or wrong token: the same answer, nothing to probe). */
export async function checkoutOfLink(runtime: Runtime, params: { reference: string; token: string }): Promise<Checkout> {
  const { boletoLinks } = await runtime.serviceKeys();
  const checkout = checkoutPageTokenMatches(params.reference, params.token, boletoLinks) ? await checkoutByReference(runtime, params.reference) : undefined;
  if (!checkout) throw new DomainError('not_found', 'Pagamento não encontrado: confira o link.', 'checkout_not_found');
  return checkout;
}
