import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { InvoiceReader } from '../../ports/invoices';
import type { Db } from './dynamo';
import { invoiceOf } from './invoice-item';
import { listInvoiceItems } from './invoice-lookup';
import { dynamoInvoices } from './invoices';
import { keys } from './keys';
import { referenceOfInvoiceId } from '../../domain/invoice-ids';

/** The invoices as the query routes read them, the payers' documents unsealed with the personal-data key. */
export function dynamoInvoiceReader(db: Db, table: string, personalDataKey: () => Promise<Buffer>): InvoiceReader {
  const store = dynamoInvoices(db, table, personalDataKey);
  return {
    ...store,
    async byNumericId(invoiceId) {
      // The id carries the reference (issue 26): one read. Ids drawn before it reach theirs through the INVID# pointer.
      const carried = referenceOfInvoiceId(invoiceId);
      const direct = carried === undefined ? undefined : await store.byReference(carried);
      if (direct?.invoiceId === invoiceId) return direct;
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.invoiceIdReservation(invoiceId), ConsistentRead: true }));
      return typeof out.Item?.reference === 'string' ? store.byReference(out.Item.reference) : undefined;
    },
    async list(accountId, query) {
      const key = await personalDataKey();
      return (await listInvoiceItems(db, table, accountId, query)).map((item) => invoiceOf(item, key));
    },
  };
}
