/**
 * The answer of the invoice lookups, apart from view.ts: the functions that only read invoices to
 * move them (provider notifications, the boleto page, the checkout) do not bundle the QR encoder.
 */
import type { Invoice } from '../../domain/invoice';
import { withQrCode } from '../../invoices/qr-code';
import { invoiceView } from './invoice-view';

/** What the answer needs of the runtime: the boleto link key and the public address. */
export type InvoiceAnswerContext = {
  serviceKeys: () => Promise<{ boletoLinks: Buffer }>;
  config: { publicBaseUrl: string };
};

/** The `{"invoice": …}` answer of the lookups. */
export async function invoiceAnswer(context: InvoiceAnswerContext, invoice: Invoice) {
  const { boletoLinks } = await context.serviceKeys();
  return { status: 200, body: { invoice: await withQrCode(invoiceView(invoice, boletoLinks, context.config.publicBaseUrl), invoice) } };
}
