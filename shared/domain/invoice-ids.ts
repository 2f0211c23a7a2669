/**
 * Invoice ids as values (issue 45 moved them from shared/platform/invoice-references.ts into the domain): the
 * reference's shape, the numeric id that carries the reference, and the reference a txid of ours
 * carries. The random draws (a new reference, an id's low bits, a txid's tail) stay outside the domain.
 */

/** The characters of an invoice reference after `INV-`: an alphabet without look-alikes (0/O, 1/I). */
export const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const REFERENCE_SHAPE = /^INV-[A-Z0-9]{6}$/;

/** Every new invoice id has 16 digits and starts with 1: from 10^15, below 10^15 + 2^49. */
const ID_BASE = 10 ** 15;
/** The random low bits of an invoice id, under the reference's 30 bits (six characters of 32): `low` is below this. */
export const INVOICE_ID_LOW = 2 ** 19;
const REFERENCE_CHARS = 6;
const ID_END = ID_BASE + REFERENCE_ALPHABET.length ** REFERENCE_CHARS * INVOICE_ID_LOW;

/**
 * The numeric id of a new invoice: 10^15, plus its reference's six characters as a 30-bit number
 * times 2^19, plus 19 random bits (`low`, drawn by the caller: shared/platform/invoice-references.ts invoiceIdDraw).
 * The id carries the reference, so `GET /api/invoice/{invoice_id}` reads the invoice at once, with no pointer item in between (issue 26); it is unique because the
 * reference is. Always 16 digits starting with 1: never the length of a CPF (11) or a CNPJ (14), and no
 * card network issues 16-digit numbers starting with 1, so no scanner takes an id for personal data
 * (the time-ordered ids drawn before had 15). Not time-ordered: the invoice list sorts by creation
 * time (shared/adapters/dynamo/invoice-item.ts invoiceListKeys).
 */
export function invoiceIdForReference(reference: string, low: number): number {
  const chars = reference.startsWith('INV-') ? reference.slice(4) : '';
  if (chars.length !== REFERENCE_CHARS || !Number.isInteger(low) || low < 0 || low >= INVOICE_ID_LOW) {
    throw new Error('An invoice id is drawn for a drawn reference only');
  }
  let high = 0;
  for (const char of chars) {
    const digit = REFERENCE_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error('An invoice id is drawn for a drawn reference only');
    high = high * REFERENCE_ALPHABET.length + digit;
  }
  return ID_BASE + high * INVOICE_ID_LOW + low;
}

/** The reference an invoice id carries; none for the time-ordered ids drawn before issue 26 (the caller checks the invoice it finds). */
export function referenceOfInvoiceId(invoiceId: number): string | undefined {
  if (!Number.isSafeInteger(invoiceId) || invoiceId < ID_BASE || invoiceId >= ID_END) return undefined;
  let high = Math.floor((invoiceId - ID_BASE) / INVOICE_ID_LOW);
  let chars = '';
  for (let i = 0; i < REFERENCE_CHARS; i += 1) {
    chars = REFERENCE_ALPHABET.charAt(high % REFERENCE_ALPHABET.length) + chars;
    high = Math.floor(high / REFERENCE_ALPHABET.length);
  }
  return `INV-${chars}`;
}

const TXID_SHAPE = /^INV([A-Z0-9]{6})[A-Za-z0-9]{23}$/;

/** The reference a txid of ours carries, or undefined for any other text. */
export function referenceOfTxid(txid: string): string | undefined {
  const match = TXID_SHAPE.exec(txid);
  return match ? `INV-${match[1]}` : undefined;
}
