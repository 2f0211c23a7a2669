/**
 * The answer of the invoice lookups, apart from lookup.ts: the functions that only read invoices to
 * move them (provider notifications, the boleto page, the checkout) do not bundle the QR encoder.
 */
import type { Runtime } from '../runtime';
import type { Item } from '../adapters/dynamo/dynamo';
import { withQrCode } from './qr-code';
import { invoiceView } from './record';

/** The `{"invoice": …}` answer of the lookups. */
export async function invoiceAnswer(runtime: Runtime, item: Item) {
  const serviceKeys = await runtime.serviceKeys();
  return { status: 200, body: { invoice: await withQrCode(invoiceView(item, serviceKeys, runtime.config.publicBaseUrl), item) } };
}
