import { formatCents } from './money';
import { versionFields } from './object-version';
import type { LatePaymentRules } from './late-payment';
import type { InvoiceTexts } from './invoice-texts';
import type { InvoiceStatus } from './invoice-transitions';
import type { BolePixRail, ChargeMethod, MethodFields, PaymentMethod, PaymentRail } from './payment-methods';

/** The invoice's `method`: a charge method of the registry (payment-methods.ts). */
export type InvoiceMethod = ChargeMethod;

/** The ids of a new invoice: its numeric id (reserved by an INVID# item) and its reference (its key). */
export type InvoiceIds = { invoiceId: number; reference: string };

export type { BoletoFields, CardFields, PixFields } from './payment-methods';

/** A method's own fields, under its setting's name (`pix`, `boleto`, `card`): the registry's rows (./payment-methods.ts) say which. */
export type InvoiceMethodFields = { [M in PaymentMethod]?: MethodFields[M] };

/** A new invoice as the rules build it (the payer's document in clear, in memory only: the adapter seals it). */
export type NewInvoice = InvoiceMethodFields &
  /** The merchant's own texts (notes…): ./invoice-texts.ts. */
  InvoiceTexts & {
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
     * Late-payment rules (a boleto's, shared by its Pix half when it is a BolePix: shared/domain/bolepix.ts):
     * what is due after the due date, and how long after it payment is accepted.
     */
    late?: LatePaymentRules;
    /**
     * The webhook events this invoice's changes recorded, oldest first (the panel's invoice page reads
     * them and their deliveries): each written by the same write as the change it reports.
     */
    eventIds?: readonly string[];
  };

/** What every invoice of a sale shares, before its ids are drawn and its method's fields are known. */
export type InvoiceBase = Omit<
  NewInvoice,
  'invoiceId' | 'reference' | 'method' | 'status' | 'dueDate' | 'payer' | 'provider' | PaymentMethod | 'awaitsPixLookup' | 'eventIds' | 'late'
>;

/** The method's own part of a new invoice: its name and fields (a Pix charge's BR Code, a boleto's barcode…). */
export type MethodPart = Pick<NewInvoice, 'method' | PaymentMethod | 'awaitsPixLookup' | 'late'>;

/** A new PENDING invoice: the sale's shared fields, its ids, its due date and payer, its method's part and its provider. */
export function pendingInvoice(
  base: InvoiceBase,
  ids: InvoiceIds,
  charge: { dueDate: string; payer: NewInvoice['payer']; provider: string },
  method: MethodPart,
): NewInvoice {
  return {
    ...base,
    invoiceId: ids.invoiceId,
    reference: ids.reference,
    status: 'PENDING',
    dueDate: charge.dueDate,
    payer: charge.payer,
    provider: charge.provider,
    ...method,
  };
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
  /** The amount credited as the invoice's payment (its total, or the amount due that day with late fees). Absent on invoices paid before it was kept: the total. */
  paidAmountCents?: number;
  /** The rail that paid it (a BolePix: pix or boleto). */
  paidRail?: PaymentRail;
  /** A BolePix paid again on its other rail after it was paid: credited on its own, a refund due to the payer. */
  otherRailPayment?: { rail: BolePixRail; amountCents: number; at: string };
  /** Still in the rails upkeep's index (shared/domain/bolepix.ts): its expiry, or a rail to close after a move. */
  inRailUpkeep?: boolean;
  /** 1 at creation, +1 at each state change (shared/domain/object-version.ts); absent on invoices stored before: 1. */
  version?: number;
};

/** The provider whose word moves an invoice: the one it records, else (older invoices) the configured one. */
export function invoiceProvider(invoice: { provider?: unknown }, configured: string): string {
  return typeof invoice.provider === 'string' && invoice.provider.length > 0 ? invoice.provider : configured;
}

/** The provider of an invoice's Pix charge: a BolePix's Pix half may have its own (its `pix.provider`), else the invoice's. */
export function pixProviderOf(invoice: { provider?: unknown; pix?: { provider?: string } }, configured: string): string {
  return invoice.pix?.provider ?? invoiceProvider(invoice, configured);
}

/** The provider whose word a notification of that target is: a txid names the Pix charge's, a reference the invoice's. */
export function targetProviderOf(
  invoice: { provider?: unknown; pix?: { provider?: string } },
  target: { txid: string } | { reference: string },
  configured: string,
): string {
  return 'txid' in target ? pixProviderOf(invoice, configured) : invoiceProvider(invoice, configured);
}

/** The amount a paid invoice was credited: what it recorded, else (paid before it was kept, or on time) its total. */
export function paidAmountCents(invoice: Pick<Invoice, 'totalCents' | 'paidAmountCents'>): number {
  return invoice.paidAmountCents ?? invoice.totalCents;
}

/**
 * The `invoice` object of invoice events (spec 6.1); `paid_after_cancel`: a payment confirmed after the
 * invoice was canceled. A payment's event also says the rail that paid and the amount paid (issue 28).
 */
export function invoiceEventData(
  invoice: Pick<Invoice, 'reference' | 'invoiceNo' | 'totalCents' | 'method' | 'paidAfterCancel'>,
  status: InvoiceStatus,
  change: { version: number; previousStatus: InvoiceStatus | null },
  payment?: { rail: PaymentRail; amountCents: number },
): Record<string, unknown> {
  return {
    invoice: {
      reference: invoice.reference,
      invoice_no: invoice.invoiceNo,
      total: formatCents(invoice.totalCents),
      status,
      method: invoice.method,
      paid_after_cancel: invoice.paidAfterCancel === true,
      ...(payment ? { rail: payment.rail, paid_amount: formatCents(payment.amountCents) } : {}),
      ...versionFields(change.version, change.previousStatus),
    },
  };
}

/**
 * How far before an invoice's creation a provider may date something that happened to its charge: the
 * providers' clocks and ours differ by seconds, never by minutes (issue 43).
 */
export const PROVIDER_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Whether a provider dates a payment, a cancellation or a refund of an invoice's charge before the
 * charge existed (past the clock skew): no such event can happen, and trusting its date would, for one,
 * move a late payment's day back before the due date (no late fees).
 */
export function datedBeforeCreation(invoice: Pick<Invoice, 'createdAt'>, occurredAt: Date): boolean {
  return occurredAt.getTime() < Date.parse(invoice.createdAt) - PROVIDER_CLOCK_SKEW_MS;
}
