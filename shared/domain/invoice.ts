import { formatCents } from './money';
import type { InvoiceStatus } from './invoice-transitions';
import type { ChargeMethod, MethodFields, PaymentMethod } from './payment-methods';

/** The invoice's `method`: a charge method of the registry (payment-methods.ts). */
export type InvoiceMethod = ChargeMethod;

/** The ids of a new invoice: its numeric id (reserved by an INVID# item) and its reference (its key). */
export type InvoiceIds = { invoiceId: number; reference: string };

export type { BoletoFields, CardFields, PixFields } from './payment-methods';

/** A method's own fields, under its setting's name (`pix`, `boleto`, `card`): the registry's rows (./payment-methods.ts) say which. */
export type InvoiceMethodFields = { [M in PaymentMethod]?: MethodFields[M] };

/** A new invoice as the rules build it (the payer's document in clear, in memory only: the adapter seals it). */
export type NewInvoice = InvoiceMethodFields & {
  accountId: string;
  invoiceId: number;
  reference: string;
  merchantName: string;
  method: InvoiceMethod;
  status: InvoiceStatus;
  invoiceNo: string;
  itemName: string;
  quantity: number;
  amountCents: number;
  tax: number;
  discount: number;
  totalCents: number;
  dueDate: string;
  notes?: string;
  payer: { email?: string; name?: string; document?: string };
  createdAt: string;
  paidAt?: string;
  /** The hosted checkout this invoice pays (its payment pays the checkout in the same transaction). */
  checkoutReference?: string;
  /** The registry name of the payment provider that created the charge: its notifications alone move it. */
  provider: string;
  /** A Pix charge its provider reads back (API Pix): it waits for its callback in the Pix sweep's index. */
  awaitsPixLookup?: boolean;
  /**
   * The webhook events this invoice's changes recorded, oldest first (the panel's invoice page reads
   * them and their deliveries): each written by the same write as the change it reports.
   */
  eventIds?: readonly string[];
};

/** What every invoice of a sale shares, before its ids are drawn and its method's fields are known. */
export type InvoiceBase = Omit<NewInvoice, 'invoiceId' | 'reference' | 'method' | 'status' | 'dueDate' | 'payer' | 'provider' | PaymentMethod | 'awaitsPixLookup' | 'eventIds'>;

/** The method's own part of a new invoice: its name and fields (a Pix charge's BR Code, a boleto's barcode…). */
export type MethodPart = Pick<NewInvoice, 'method' | PaymentMethod | 'awaitsPixLookup'>;

/** A new PENDING invoice: the sale's shared fields, its ids, its due date and payer, its method's part and its provider. */
export function pendingInvoice(
  base: InvoiceBase,
  ids: InvoiceIds,
  charge: { dueDate: string; payer: NewInvoice['payer']; provider: string },
  method: MethodPart,
): NewInvoice {
  return { ...base, invoiceId: ids.invoiceId, reference: ids.reference, status: 'PENDING', dueDate: charge.dueDate, payer: charge.payer, provider: charge.provider, ...method };
}

/**
 * An invoice as stored and read back. The payer's document is sealed in storage: it is here only when
 * read for the query routes (the reader holds the key); `awaitsPixLookup` here says the charge still
 * waits in the Pix sweep's index.
 */
export type Invoice = Omit<NewInvoice, 'provider'> & {
  /** Absent on invoices written before invoices recorded their provider: the configured one's (invoiceProvider). */
  provider?: string;
  canceledAt?: string;
  refundedAt?: string;
  /** A payment confirmed after the invoice was canceled: credited once, and flagged. */
  paidAfterCancel?: boolean;
  /** Taken out of the merchant's invoice list (the Pix charge of an abandoned checkout); any move lists it again. */
  unlisted?: boolean;
};

/** The provider whose word moves an invoice: the one it records, else (older invoices) the configured one. */
export function invoiceProvider(invoice: { provider?: unknown }, configured: string): string {
  return typeof invoice.provider === 'string' && invoice.provider.length > 0 ? invoice.provider : configured;
}

/** The `invoice` object of invoice events (spec 6.1); `paid_after_cancel`: a payment confirmed after the invoice was canceled. */
export function invoiceEventData(
  invoice: Pick<Invoice, 'reference' | 'invoiceNo' | 'totalCents' | 'method' | 'paidAfterCancel'>,
  status: InvoiceStatus,
): Record<string, unknown> {
  return {
    invoice: {
      reference: invoice.reference,
      invoice_no: invoice.invoiceNo,
      total: formatCents(invoice.totalCents),
      status,
      method: invoice.method,
      paid_after_cancel: invoice.paidAfterCancel === true,
    },
  };
}
