import { createHash, randomInt } from 'node:crypto';
import { linkToken, linkTokenMatches } from './crypto/link-token';
import { ALPHANUMERIC, randomString } from './ids';
import type { BoletoFields, CardFields, InvoiceIds, InvoiceMethod, NewInvoice, PixFields } from '../domain/invoice';
import { INVOICE_ID_LOW, invoiceIdForReference, REFERENCE_ALPHABET } from '../domain/invoice-ids';

/**
 * What drawing and signing an invoice's ids needs beyond the rules: randomness (node:crypto randomInt),
 * digests and link tokens. The rules themselves (the reference's shape, the id that carries it, the
 * reference a txid carries) live in shared/domain/invoice-ids.ts (issue 45).
 */

export type { InvoiceMethod, InvoiceIds, PixFields, BoletoFields, CardFields, NewInvoice };

/** `INV-` and six characters from an alphabet without look-alikes (0/O, 1/I). */
export function newInvoiceReference(): string {
  return `INV-${randomString(6, REFERENCE_ALPHABET)}`;
}

/**
 * Where new invoice ids are drawn (shared/adapters/dynamo/invoices.ts `dynamoInvoiceIds` draws through it).
 * An object, so a test can make the next draw a given id (`vi.spyOn(invoiceIdDraw, 'reference')`).
 */
export const invoiceIdDraw: { reference: () => string; numericId: (reference: string) => number } = {
  reference: () => newInvoiceReference(),
  numericId: (reference) => invoiceIdForReference(reference, randomInt(INVOICE_ID_LOW)),
};

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
