import { dynamoInvoices } from '../adapters/dynamo/invoices';
import type { InvoiceStore } from '../ports/invoices';
import type { Runtime } from '../runtime';

export { checkoutsOfTxRef } from '../adapters/dynamo/checkout-lookup';

/** The invoices as the query routes read them: typed, the payers' documents unsealed. */
export function invoiceReader(runtime: Runtime): InvoiceStore {
  return dynamoInvoices(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).personalData);
}
