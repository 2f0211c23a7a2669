import { boletoPageHeaders, renderBoletoHtml } from '../../shared/pages/boleto/page';
import { formatCents } from '../../shared/domain/money';
import { lastPayableDate } from '../../shared/domain/bolepix';
import type { Invoice } from '../../shared/domain/invoice';
import { storedQrCode } from '../../shared/domain/qr-code-image';
import { NotFoundError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceLookup } from '../../shared/wiring/lookups';
import { REFERENCE_SHAPE } from '../../shared/domain/invoice-ids';
import { boletoPageTokenMatches } from '../../shared/platform/invoice-references';
import { boletoRoutes as routes } from '../../shared/http/route-table/boleto';

/** The payer's document on the printed page: only its first three and last two characters. */
function maskDocument(document: string | null): string | undefined {
  if (!document) return undefined;
  return `${document.slice(0, 3)}${'*'.repeat(Math.max(0, document.length - 5))}${document.slice(-2)}`;
}

/** What the page says of a boleto that can no longer be paid. */
const NOTICES: Readonly<Record<Exclude<Invoice['status'], 'PENDING'>, string>> = {
  PAID: 'Este boleto já foi pago. Não pague novamente.',
  CANCELED: 'Este boleto foi cancelado e não deve ser pago.',
  REFUNDED: 'Este boleto foi pago e devolvido. Não pague novamente.',
};

/** A BolePix's Pix half as the page shows it, only while it can be paid (once paid or canceled it is withdrawn). */
function pixHalf(invoice: Invoice): { copy: string; qrDataUri: string } | undefined {
  const qrDataUri = storedQrCode(invoice);
  return invoice.pix && qrDataUri && invoice.status === 'PENDING' ? { copy: invoice.pix.copy, qrDataUri } : undefined;
}

/** A percent in basis points as "2.00" (integer arithmetic). */
const percentOf = (basisPoints: number) => `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`;

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
    // A BolePix's Pix half, only while it can be paid (once paid or canceled it is withdrawn).
    pix: pixHalf(invoice),
    late: invoice.late
      ? { fine: percentOf(invoice.late.fineBasisPoints), interest: percentOf(invoice.late.interestBasisPointsAMonth), lastDay: lastPayableDate(invoice) }
      : undefined,
    notice: invoice.status === 'PENDING' ? undefined : NOTICES[invoice.status],
  });
  return { status: 200, body: html, contentType: 'text/html; charset=utf-8', headers: boletoPageHeaders() };
});
