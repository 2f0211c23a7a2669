import { seal, unseal } from '../../platform/crypto/personal-data';
import type { Invoice, InvoiceMethod, InvoiceMethodFields, NewInvoice } from '../../domain/invoice';
import { PAID_RAILS, PAYMENT_METHODS } from '../../domain/payment-methods';
import type { InvoiceStatus } from '../../domain/invoice-transitions';
import { definedOnly } from '../../domain/defined';
import { invoiceTextsOfItem } from '../../domain/invoice-texts';
import { numericIdBounds, sortableNumericId } from '../../platform/ids';
import type { Item } from './dynamo';
import { keys } from './keys';
import { inPixSweep, pixSweepAttributes } from './pix-sweep-index';
import { hasRailUpkeep } from '../../domain/bolepix';
import { FIRST_VERSION } from '../../domain/object-version';
import type { LatePaymentRules } from '../../domain/late-payment';
import { inRailUpkeep, railUpkeepAttributes } from './rail-upkeep-index';

function documentContext(accountId: string, reference: string): string {
  return `invoice:${accountId}:${reference}`;
}

const LIST_TIE_BREAK = 4096;

/**
 * Where an invoice is listed (GSI1: by account, newest first): a time-ordered number of its creation
 * millisecond, with 12 bits of its id to order invoices of one millisecond. It is the numeric id itself
 * for the invoices whose ids were time-ordered (before issue 26), so old and new invoices list in one
 * order and a civil-date range is one key range for both.
 */
export function invoiceListKeys(accountId: string, createdAt: string, invoiceId: number): { GSI1PK: string; GSI1SK: string } {
  const position = numericIdBounds(Date.parse(createdAt)).lowest + (invoiceId % LIST_TIE_BREAK);
  return { GSI1PK: keys.invoiceListPartition(accountId), GSI1SK: sortableNumericId(position) };
}

/** The invoice item: keyed by reference; listed through GSI1 by account, newest first. */
export function invoiceItem(invoice: NewInvoice, personalDataKey: Buffer): Item {
  const { payer, awaitsPixLookup, ...rest } = invoice;
  return {
    ...keys.invoice(invoice.reference),
    ...invoiceListKeys(invoice.accountId, invoice.createdAt, invoice.invoiceId),
    ...(awaitsPixLookup ? pixSweepAttributes(invoice.createdAt, invoice.reference) : {}),
    ...(hasRailUpkeep(invoice) ? railUpkeepAttributes(invoice) : {}),
    type: 'invoice',
    ...rest,
    version: FIRST_VERSION,
    payerEmail: payer.email,
    payerName: payer.name,
    payerDocumentSealed: payer.document ? seal(payer.document, personalDataKey, documentContext(invoice.accountId, invoice.reference)) : undefined,
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined);

/** The late-payment rules as stored (a map of three whole numbers), or undefined. */
function lateOf(value: unknown): LatePaymentRules | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const rules = value as Record<string, unknown>;
  const fine = count(rules.fineBasisPoints);
  const interest = count(rules.interestBasisPointsAMonth);
  const days = count(rules.daysAfterDue);
  return fine === undefined || interest === undefined || days === undefined
    ? undefined
    : { fineBasisPoints: fine, interestBasisPointsAMonth: interest, daysAfterDue: days };
}

/** A BolePix's payment on its other rail, as stored. */
function otherRailPaymentOf(value: unknown): Invoice['otherRailPayment'] {
  if (typeof value !== 'object' || value === null) return undefined;
  const payment = value as Record<string, unknown>;
  const amountCents = count(payment.amountCents);
  const at = text(payment.at);
  const rail = payment.rail === 'pix' || payment.rail === 'boleto' ? payment.rail : undefined;
  return rail && amountCents !== undefined && at ? { rail, amountCents, at } : undefined;
}

/** The method's own fields, stored as written under its setting's name (the item's `pix`, `boleto` or `card` map). */
function methodFieldsOf(item: Item): InvoiceMethodFields {
  return Object.fromEntries(PAYMENT_METHODS.filter((method) => item[method] !== undefined).map((method) => [method, item[method]])) as InvoiceMethodFields;
}

/**
 * An invoice item read back as the record. The payer's document is unsealed only when a personal-data
 * key is given (the query routes); the moves read invoices without it.
 */
export function invoiceOf(item: Item, personalDataKey?: Buffer): Invoice {
  const accountId = String(item.accountId);
  const reference = String(item.reference);
  const sealed = text(item.payerDocumentSealed);
  const optional = {
    paidAt: text(item.paidAt),
    canceledAt: text(item.canceledAt),
    refundedAt: text(item.refundedAt),
    checkoutReference: text(item.checkoutReference),
    provider: text(item.provider),
    paidAfterCancel: item.paidAfterCancel === true ? true : undefined,
    unlisted: item.unlisted === true ? true : undefined,
    awaitsPixLookup: inPixSweep(item) ? true : undefined,
    late: lateOf(item.late),
    paidAmountCents: count(item.paidAmountCents),
    paidRail: PAID_RAILS.find((rail) => rail === item.paidRail),
    otherRailPayment: otherRailPaymentOf(item.otherRailPayment),
    inRailUpkeep: inRailUpkeep(item) ? true : undefined,
    version: count(item.version),
    eventIds: Array.isArray(item.eventIds) ? item.eventIds.filter((id): id is string => typeof id === 'string') : undefined,
  };
  const payer = {
    email: text(item.payerEmail),
    name: text(item.payerName),
    document: sealed && personalDataKey ? unseal(sealed, personalDataKey, documentContext(accountId, reference)) : undefined,
  };
  return {
    accountId,
    invoiceId: Number(item.invoiceId),
    reference,
    merchantName: String(item.merchantName),
    method: item.method as InvoiceMethod,
    status: item.status as InvoiceStatus,
    invoiceNo: String(item.invoiceNo),
    itemName: String(item.itemName),
    quantity: Number(item.quantity),
    amountCents: Number(item.amountCents),
    tax: Number(item.tax),
    discount: Number(item.discount),
    totalCents: Number(item.totalCents),
    dueDate: String(item.dueDate),
    payer: definedOnly(payer),
    createdAt: String(item.createdAt),
    ...definedOnly(optional),
    ...invoiceTextsOfItem(item),
    ...methodFieldsOf(item),
  };
}
