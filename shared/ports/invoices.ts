import type { Invoice, InvoiceIds } from '../domain/invoice';

/** Where a new invoice's ids come from (shared/adapters/dynamo/invoices.ts). */
export interface InvoiceIdPort {
  /**
   * A reference and a numeric id neither in use yet, checked BEFORE the provider is asked (a taken draw
   * is drawn again there, where nothing outside has happened); `proposed` is tried first. After a few
   * taken draws: IdClashError.
   */
  unused(now: Date, proposed?: InvoiceIds): Promise<InvoiceIds>;
}

/** The invoices as stored (shared/adapters/dynamo/invoices.ts), read strongly consistent. */
export interface InvoiceStore {
  byReference(reference: string): Promise<Invoice | undefined>;
  /** A Pix invoice by its txid, or undefined (no invoice carries that txid). */
  byTxid(txid: string): Promise<Invoice | undefined>;
}
