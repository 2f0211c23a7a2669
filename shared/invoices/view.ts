import { cardTransaction, type Invoice } from '../domain/invoice';
import { formatCents } from '../domain/money';
import { NotFoundError } from '../errors';
import { boletoUrl } from './record';

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
    notes: invoice.notes ?? null,
    email: invoice.payer.email ?? null,
    client: invoice.payer.name ?? null,
    document: invoice.payer.document ?? null,
    created_at: invoice.createdAt,
    paid_at: invoice.paidAt ?? null,
    canceled_at: invoice.canceledAt ?? null,
    refunded_at: invoice.refundedAt ?? null,
    paid_after_cancel: invoice.paidAfterCancel === true,
  };
  const { pix, boleto, card } = invoice;
  if (pix) Object.assign(view, { txid: pix.txid, copy: pix.copy });
  if (boleto) {
    Object.assign(view, {
      customer: boleto.customerId,
      boleto: boletoUrl(publicBaseUrl, reference, boletoLinks),
      barcode: boleto.barcode,
      digitable: boleto.digitable,
    });
  }
  if (card) {
    Object.assign(view, {
      card: { brand: card.brand, last4: card.last4, installments: card.installments },
      // A card charge whose answer was lost is PENDING without a transaction until it is settled.
      ...(typeof card.transactionId === 'string' ? { transaction: cardTransaction(card, invoice.totalCents) } : {}),
    });
  }
  return view;
}

/** The invoice when it belongs to the account (and passes `accept`); otherwise 404, whoever owns it. */
export function ownInvoice(invoice: Invoice | undefined, accountId: string, accept: (invoice: Invoice) => boolean = () => true): Invoice {
  if (!invoice || invoice.accountId !== accountId || !accept(invoice)) throw new NotFoundError('Invoice not found');
  return invoice;
}
