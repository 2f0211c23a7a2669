import { type Invoice, paidAmountCents } from '../../domain/invoice';
import { formatCents } from '../../domain/money';
import { FIRST_VERSION } from '../../domain/object-version';
import { methodFieldsView, PAYMENT_METHODS } from '../../domain/payment-methods';
import { NotFoundError } from '../../domain/errors';
import { invoiceTextsView } from '../../domain/invoice-texts';
import { boletoUrl } from '../../platform/invoice-references';

/** The invoice object of the query routes: the common fields, the payer where given, the method's own fields. */
export function invoiceView(invoice: Invoice, boletoLinks: Buffer, publicBaseUrl: string): Record<string, unknown> {
  const { reference } = invoice;
  const view: Record<string, unknown> = {
    id: invoice.invoiceId,
    reference,
    invoice_no: invoice.invoiceNo,
    item_name: invoice.itemName,
    quantity: invoice.quantity,
    amount: formatCents(invoice.amountCents),
    discount: invoice.discount,
    tax: invoice.tax,
    total: formatCents(invoice.totalCents),
    status: invoice.status,
    due_date: invoice.dueDate,
    method: invoice.method,
    ...invoiceTextsView(invoice),
    email: invoice.payer.email ?? null,
    client: invoice.payer.name ?? null,
    document: invoice.payer.document ?? null,
    created_at: invoice.createdAt,
    paid_at: invoice.paidAt ?? null,
    canceled_at: invoice.canceledAt ?? null,
    refunded_at: invoice.refundedAt ?? null,
    paid_after_cancel: invoice.paidAfterCancel === true,
    paid_amount: invoice.paidAt !== undefined && invoice.status !== 'PENDING' ? formatCents(paidAmountCents(invoice)) : null,
    paid_rail: invoice.paidAt !== undefined && invoice.status !== 'PENDING' ? (invoice.paidRail ?? invoice.method) : null,
    version: invoice.version ?? FIRST_VERSION,
  };
  const { late, otherRailPayment } = invoice;
  if (late) view.late_payment = { fine: late.fineBasisPoints / 100, interest: late.interestBasisPointsAMonth / 100, days_after_due: late.daysAfterDue };
  if (otherRailPayment) view.refund_due = { rail: otherRailPayment.rail, amount: formatCents(otherRailPayment.amountCents), paid_at: otherRailPayment.at };
  // Each method's own fields, as its registry row shows them (the boleto's signed page link drawn only when asked).
  const context = { reference, totalCents: invoice.totalCents, boletoUrl: () => boletoUrl(publicBaseUrl, reference, boletoLinks) };
  for (const method of PAYMENT_METHODS) Object.assign(view, methodFieldsView(method, invoice[method], context));
  return view;
}

/** The invoice when it belongs to the account (and passes `accept`); otherwise 404, whoever owns it. */
export function ownInvoice(invoice: Invoice | undefined, accountId: string, accept: (invoice: Invoice) => boolean = () => true): Invoice {
  if (!invoice || invoice.accountId !== accountId || !accept(invoice)) throw new NotFoundError('Invoice not found');
  return invoice;
}
