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

/**
 * The Pix sweep's index (shared/adapters/dynamo/pix-sweep-index.ts): the PENDING Pix charges of a
 * provider that reads charges back, waiting for their callback, in a few partitions.
 */
export interface PixSweepIndex {
  readonly partitions: readonly string[];
  /** References of one partition's charges created before `before` (ISO time), oldest first, at most `limit`; the index lags the invoices. */
  due(partition: string, before: string, limit: number): Promise<string[]>;
  /** Takes a still-PENDING invoice out of the index; false when it is no longer PENDING or no longer indexed. */
  retire(reference: string): Promise<boolean>;
}
