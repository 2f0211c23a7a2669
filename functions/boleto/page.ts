import { boletoPageHeaders, renderBoletoHtml } from '../../shared/boleto/page';
import { formatCents } from '../../shared/domain/money';
import { NotFoundError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceLookup } from '../../shared/wiring/lookups';
import { boletoPageTokenMatches, REFERENCE_SHAPE } from '../../shared/invoices/record';
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
  const invoice = await invoiceLookup(runtime).byReference(params.reference);
  if (!invoice?.boleto || invoice.method !== 'boleto') throw new NotFoundError('Boleto not found');
  const html = renderBoletoHtml({
    reference: params.reference,
    merchantName: invoice.merchantName,
    payerName: invoice.payer.name ?? '',
    payerDocument: maskDocument(invoice.payer.document ?? null),
    amount: formatCents(invoice.totalCents),
    dueDate: invoice.dueDate,
    digitableLine: invoice.boleto.digitable,
    barcode: invoice.boleto.barcode,
    instructions: invoice.boleto.instructions,
  });
  return { status: 200, body: html, contentType: 'text/html; charset=utf-8', headers: boletoPageHeaders() };
});
