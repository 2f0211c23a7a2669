import { createHash } from 'node:crypto';
import { linkToken, linkTokenMatches } from '../crypto/link-token';
import { seal, unseal } from '../crypto/personal-data';
import { ALPHANUMERIC, newNumericId, randomString, sortableNumericId } from '../ids';
import { formatCents } from '../domain/money';
import type { Item } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { pixSweepAttributes } from '../adapters/dynamo/pix-sweep-index';
import { type BoletoFields, type CardFields, cardTransaction, type InvoiceIds, type InvoiceMethod, type NewInvoice, type PixFields } from '../domain/invoice';

export type { InvoiceMethod, InvoiceIds, PixFields, BoletoFields, CardFields, NewInvoice };

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `INV-` and six characters from an alphabet without look-alikes (0/O, 1/I). */
export function newInvoiceReference(): string {
  return `INV-${randomString(6, REFERENCE_ALPHABET)}`;
}

export const REFERENCE_SHAPE = /^INV-[A-Z0-9]{6}$/;

/**
 * Where new invoice ids are drawn (shared/adapters/dynamo/invoices.ts `dynamoInvoiceIds` draws through it).
 * An object, so a test can make the next draw a given id (`vi.spyOn(invoiceIdDraw, 'reference')`).
 */
export const invoiceIdDraw: { reference: () => string; numericId: (now: Date) => number } = {
  reference: () => newInvoiceReference(),
  numericId: (now) => newNumericId(now),
};

const TXID_SHAPE = /^INV([A-Z0-9]{6})[A-Za-z0-9]{23}$/;

/**
 * The Pix txid of an invoice: `INV` + the reference's six characters + 23 random alphanumerics
 * (32 in all; the Central Bank accepts 26 to 35). Unique because the reference is, and a lookup by
 * txid needs no pointer item: the reference is read from the txid, then the stored txid compared.
 */
export function txidForReference(reference: string): string {
  return `${reference.replace('-', '')}${randomString(23)}`;
}

/** `length` characters of `alphabet` read from a digest (a deterministic stand-in for randomString). */
function digestString(digest: Buffer, length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet.charAt((digest[i % digest.length] ?? 0) % alphabet.length);
  return out;
}

/**
 * The reference and txid a Pix charge proposes when its request carries an Idempotency-Key: derived
 * from (account, key), so a retry after a provider failure or a lost answer (the key freed, nothing
 * recorded) proposes the same txid, and the PSP's PUT /cob/{txid} finds the first charge instead of
 * making a second one. Same shape as a drawn txid; when the derived reference is taken (by another
 * invoice), the request draws ids as a request without a key does.
 */
export function idempotentPixIds(accountId: string, idempotencyKey: string): { reference: string; txid: string } {
  const digest = createHash('sha256').update(`pix-charge:${accountId}:${idempotencyKey}`).digest();
  const reference = `INV-${digestString(digest, 6, REFERENCE_ALPHABET)}`;
  const tail = digestString(createHash('sha256').update(digest).digest(), 23, ALPHANUMERIC);
  return { reference, txid: `${reference.replace('-', '')}${tail}` };
}

/** The reference a txid of ours carries, or undefined for any other text. */
export function referenceOfTxid(txid: string): string | undefined {
  const match = TXID_SHAPE.exec(txid);
  return match ? `INV-${match[1]}` : undefined;
}

function documentContext(accountId: string, reference: string): string {
  return `invoice:${accountId}:${reference}`;
}

/** Where an invoice is listed (GSI1: by account, newest first). */
export function invoiceListKeys(accountId: string, invoiceId: number): { GSI1PK: string; GSI1SK: string } {
  return { GSI1PK: keys.invoiceListPartition(accountId), GSI1SK: sortableNumericId(invoiceId) };
}

/** The invoice item: keyed by reference; listed through GSI1 by account, newest first. */
export function invoiceItem(invoice: NewInvoice, personalDataKey: Buffer): Item {
  const { payer, awaitsPixLookup, ...rest } = invoice;
  return {
    ...keys.invoice(invoice.reference),
    ...invoiceListKeys(invoice.accountId, invoice.invoiceId),
    ...(awaitsPixLookup ? pixSweepAttributes(invoice.createdAt, invoice.reference) : {}),
    type: 'invoice',
    ...rest,
    payerEmail: payer.email,
    payerName: payer.name,
    payerDocumentSealed: payer.document ? seal(payer.document, personalDataKey, documentContext(invoice.accountId, invoice.reference)) : undefined,
  };
}

/** The signed link of a boleto's printable page (no token needed: the payer opens it). */
export function boletoPageToken(reference: string, key: Buffer): string {
  return linkToken(key, `boleto:${reference}`);
}

export function boletoPageTokenMatches(reference: string, token: string, key: Buffer): boolean {
  return linkTokenMatches(key, `boleto:${reference}`, token);
}

export function boletoUrl(publicBaseUrl: string, reference: string, key: Buffer): string {
  return `${publicBaseUrl}/boleto/${reference}/${boletoPageToken(reference, key)}`;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The invoice object of the query routes: the common fields, the payer where given, the method's own fields. */
export function invoiceView(item: Item, keysFor: { personalData: Buffer; boletoLinks: Buffer }, publicBaseUrl: string): Record<string, unknown> {
  const accountId = String(item.accountId);
  const reference = String(item.reference);
  const view: Record<string, unknown> = {
    id: Number(item.invoiceId),
    reference,
    invoice_no: item.invoiceNo,
    item_name: item.itemName,
    quantity: item.quantity,
    amount: formatCents(Number(item.amountCents)),
    discount: item.discount,
    tax: item.tax,
    total: formatCents(Number(item.totalCents)),
    status: item.status,
    due_date: item.dueDate,
    method: item.method,
    notes: str(item.notes),
    email: str(item.payerEmail),
    client: str(item.payerName),
    document:
      typeof item.payerDocumentSealed === 'string' ? unseal(item.payerDocumentSealed, keysFor.personalData, documentContext(accountId, reference)) : null,
    created_at: item.createdAt,
    paid_at: str(item.paidAt),
    canceled_at: str(item.canceledAt),
    refunded_at: str(item.refundedAt),
    paid_after_cancel: item.paidAfterCancel === true,
  };
  const pix = item.pix as PixFields | undefined;
  if (pix) Object.assign(view, { txid: pix.txid, copy: pix.copy });
  const boleto = item.boleto as BoletoFields | undefined;
  if (boleto) {
    Object.assign(view, {
      customer: boleto.customerId,
      boleto: boletoUrl(publicBaseUrl, reference, keysFor.boletoLinks),
      barcode: boleto.barcode,
      digitable: boleto.digitable,
    });
  }
  const card = item.card as CardFields | undefined;
  if (card) {
    Object.assign(view, {
      card: { brand: card.brand, last4: card.last4, installments: card.installments },
      // A card charge whose answer was lost is PENDING without a transaction until it is settled.
      ...(typeof card.transactionId === 'string' ? { transaction: cardTransaction(card, Number(item.totalCents)) } : {}),
    });
  }
  return view;
}

export { cardTransaction };
