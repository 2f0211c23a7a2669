import { dynamoInvoiceReader } from '../adapters/dynamo/invoice-reader';
import { dynamoInvoices, readInvoice } from '../adapters/dynamo/invoices';
import type { Invoice } from '../domain/invoice';
import type { InvoiceReader, InvoiceStore } from '../ports/invoices';
import type { Runtime } from './runtime';

export { checkoutByReference, checkoutsOfTxRef } from '../adapters/dynamo/checkout-lookup';

const personalDataKey = (runtime: Runtime) => async () => (await runtime.serviceKeys()).personalData;

/** The invoices as the query routes read them: typed, the payers' documents unsealed. */
export function invoiceReader(runtime: Runtime): InvoiceReader {
  return dynamoInvoiceReader(runtime.db, runtime.config.tableName, personalDataKey(runtime));
}

/** One invoice by reference, typed, without its payer's document (a page that shows a Pix charge's code). */
export function invoiceByReference(runtime: Runtime, reference: string): Promise<Invoice | undefined> {
  return readInvoice(runtime.db, runtime.config.tableName, reference);
}

/** One invoice by reference or txid, typed, its payer's document unsealed (the pages that show one). */
export function invoiceLookup(runtime: Runtime): InvoiceStore {
  return dynamoInvoices(runtime.db, runtime.config.tableName, personalDataKey(runtime));
}
