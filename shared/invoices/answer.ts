/**
 * The answer of the invoice lookups, apart from view.ts: the functions that only read invoices to
 * move them (provider notifications, the boleto page, the checkout) do not bundle the QR encoder.
 */
import type { Invoice } from '../domain/invoice';
import type { Runtime } from '../runtime';
import { withQrCode } from './qr-code';
import { invoiceView } from './view';

/** The `{"invoice": …}` answer of the lookups. */
export async function invoiceAnswer(runtime: Runtime, invoice: Invoice) {
  const { boletoLinks } = await runtime.serviceKeys();
  return { status: 200, body: { invoice: await withQrCode(invoiceView(invoice, boletoLinks, runtime.config.publicBaseUrl), invoice) } };
}
