import { boletoPageHeaders, renderBoletoHtml } from '../../shared/boleto/page';
import { NotFoundError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceByReference } from '../../shared/wiring/lookups';
import { boletoPageTokenMatches, invoiceView, REFERENCE_SHAPE } from '../../shared/invoices/record';
import { boletoRoutes as routes } from '../../shared/http/route-table/boleto';

/** The payer's document on the printed page: only its first three and last two characters. */
function maskDocument(document: string | null): string | undefined {
  if (!document) return undefined;
  return `${document.slice(0, 3)}${'*'.repeat(Math.max(0, document.length - 5))}${document.slice(-2)}`;
}

/** GET /boleto/{reference}/{token}: the printable boleto. The token is the link's signature: a wrong one is a 404. */
export const handler = httpHandler(routes.boletoPage, async ({ params, runtime }) => {
  const serviceKeys = await runtime.serviceKeys();
  if (!REFERENCE_SHAPE.test(params.reference) || !boletoPageTokenMatches(params.reference, params.token, serviceKeys.boletoLinks)) {
    throw new NotFoundError('Boleto not found');
  }
  const item = await invoiceByReference(runtime, params.reference);
  if (!item || item.method !== 'boleto') throw new NotFoundError('Boleto not found');
  const view = invoiceView(item, serviceKeys, runtime.config.publicBaseUrl);
  const html = renderBoletoHtml({
    reference: params.reference,
    merchantName: String(item.merchantName ?? ''),
    payerName: String(view.client ?? ''),
    payerDocument: maskDocument(typeof view.document === 'string' ? view.document : null),
    amount: String(view.total),
    dueDate: String(view.due_date),
    digitableLine: String(view.digitable),
    barcode: String(view.barcode),
    instructions:
      typeof (item.boleto as { instructions?: unknown } | undefined)?.instructions === 'string'
        ? String((item.boleto as { instructions: string }).instructions)
        : undefined,
  });
  return { status: 200, body: html, contentType: 'text/html; charset=utf-8', headers: boletoPageHeaders() };
});
