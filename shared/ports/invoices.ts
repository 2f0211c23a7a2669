import type { InvoiceIds } from '../domain/invoice';

/** Where a new invoice's ids come from (shared/adapters/dynamo/invoices.ts). */
export interface InvoiceIdPort {
  /**
   * A reference and a numeric id neither in use yet, checked BEFORE the provider is asked (a taken draw
   * is drawn again there, where nothing outside has happened); `proposed` is tried first. After a few
   * taken draws: IdClashError.
   */
  unused(now: Date, proposed?: InvoiceIds): Promise<InvoiceIds>;
}
