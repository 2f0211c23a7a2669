import { createHash, randomInt } from 'node:crypto';
import { linkToken, linkTokenMatches } from '../crypto/link-token';
import { ALPHANUMERIC, randomString } from '../ids';
import type { BoletoFields, CardFields, InvoiceIds, InvoiceMethod, NewInvoice, PixFields } from '../domain/invoice';

export type { InvoiceMethod, InvoiceIds, PixFields, BoletoFields, CardFields, NewInvoice };

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `INV-` and six characters from an alphabet without look-alikes (0/O, 1/I). */
export function newInvoiceReference(): string {
  return `INV-${randomString(6, REFERENCE_ALPHABET)}`;
}

export const REFERENCE_SHAPE = /^INV-[A-Z0-9]{6}$/;

/** Every new invoice id has 16 digits and starts with 1: from 10^15, below 10^15 + 2^49. */
const ID_BASE = 10 ** 15;
/** The random low bits of an invoice id, under the reference's 30 bits (six characters of 32). */
const ID_LOW = 2 ** 19;
const REFERENCE_CHARS = 6;
const ID_END = ID_BASE + REFERENCE_ALPHABET.length ** REFERENCE_CHARS * ID_LOW;

/**
 * The numeric id of a new invoice: 10^15, plus its reference's six characters as a 30-bit number
 * times 2^19, plus 19 random bits. The id carries the reference, so `GET /api/invoice/{invoice_id}`
 * reads the invoice at once, with no pointer item in between (issue 26); it is unique because the
 * reference is. Always 16 digits starting with 1: never the length of a CPF (11) or a CNPJ (14), and no
 * card network issues 16-digit numbers starting with 1, so no scanner takes an id for personal data
 * (the time-ordered ids drawn before had 15). Not time-ordered: the invoice list sorts by creation
 * time (shared/adapters/dynamo/invoice-item.ts invoiceListKeys).
 */
export function invoiceIdForReference(reference: string, low: number = randomInt(ID_LOW)): number {
  const chars = reference.startsWith('INV-') ? reference.slice(4) : '';
  if (chars.length !== REFERENCE_CHARS || !Number.isInteger(low) || low < 0 || low >= ID_LOW) {
    throw new Error('An invoice id is drawn for a drawn reference only');
  }
  let high = 0;
  for (const char of chars) {
    const digit = REFERENCE_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error('An invoice id is drawn for a drawn reference only');
    high = high * REFERENCE_ALPHABET.length + digit;
  }
  return ID_BASE + high * ID_LOW + low;
}

/** The reference an invoice id carries; none for the time-ordered ids drawn before issue 26 (the caller checks the invoice it finds). */
export function referenceOfInvoiceId(invoiceId: number): string | undefined {
  if (!Number.isSafeInteger(invoiceId) || invoiceId < ID_BASE || invoiceId >= ID_END) return undefined;
  let high = Math.floor((invoiceId - ID_BASE) / ID_LOW);
  let chars = '';
  for (let i = 0; i < REFERENCE_CHARS; i += 1) {
    chars = REFERENCE_ALPHABET.charAt(high % REFERENCE_ALPHABET.length) + chars;
    high = Math.floor(high / REFERENCE_ALPHABET.length);
  }
  return `INV-${chars}`;
}

/**
 * Where new invoice ids are drawn (shared/adapters/dynamo/invoices.ts `dynamoInvoiceIds` draws through it).
 * An object, so a test can make the next draw a given id (`vi.spyOn(invoiceIdDraw, 'reference')`).
 */
export const invoiceIdDraw: { reference: () => string; numericId: (reference: string) => number } = {
  reference: () => newInvoiceReference(),
  numericId: (reference) => invoiceIdForReference(reference),
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
