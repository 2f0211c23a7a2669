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

/** The filters of GET /api/invoices: a page, and invoice_no, email (partial, any case) and a Brazil-date range. */
export type InvoiceListQuery = { page: number; limit: number; invoice_no?: string; email?: string; start_date?: string; end_date?: string };

/** The invoices as stored (shared/adapters/dynamo/invoices.ts), read strongly consistent. */
export interface InvoiceStore {
  byReference(reference: string): Promise<Invoice | undefined>;
  /** A Pix invoice by its txid, or undefined (no invoice carries that txid). */
  byTxid(txid: string): Promise<Invoice | undefined>;
}

/** The invoices as the query routes read them (shared/adapters/dynamo/invoice-reader.ts): also by numeric id, and listed. */
export interface InvoiceReader extends InvoiceStore {
  /** An invoice by its numeric id (through its id's reservation), or undefined. */
  byNumericId(invoiceId: number): Promise<Invoice | undefined>;
  /** The account's invoices, newest first, filtered and paged (filters run after the read, within a bounded scan). */
  list(accountId: string, query: InvoiceListQuery): Promise<Invoice[]>;
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

/**
 * The rails upkeep's index (shared/adapters/dynamo/rail-upkeep-index.ts): boletos with a second rail or
 * late-payment rules, due when they expire or once a move left a rail to close.
 */
export interface RailUpkeepIndex {
  readonly partitions: readonly string[];
  /** References of one partition's invoices due before `before` (ISO time), soonest first, at most `limit`. */
  due(partition: string, before: string, limit: number): Promise<string[]>;
  /** Takes an invoice out of the index, only if it still has `status` and is still indexed; false otherwise (a move came meanwhile). */
  retire(reference: string, status: Invoice['status']): Promise<boolean>;
}
