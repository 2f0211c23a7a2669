import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { brazilDayBounds } from '../../domain/brazil-dates';
import { queryPage } from './paging';
import { NotFoundError } from '../../domain/errors';
import type { Db, Item, TableAccess } from './dynamo';
import { keys } from './keys';
import { numericIdBounds, sortableNumericId } from '../../platform/ids';
import { referenceOfTxid } from '../../domain/invoice-ids';

/** An invoice by reference, strongly consistent; undefined when there is none. */
export async function invoiceByReference(access: TableAccess, reference: string): Promise<Item | undefined> {
  const out = await access.db.send(new GetCommand({ TableName: access.config.tableName, Key: keys.invoice(reference), ConsistentRead: true }));
  return out.Item;
}

/** A Pix invoice by txid: one strongly consistent read (the txid carries the reference), checked against the stored txid. */
export async function invoiceByTxid(access: TableAccess, txid: string): Promise<Item | undefined> {
  const reference = referenceOfTxid(txid);
  const item = reference ? await invoiceByReference(access, reference) : undefined;
  return (item?.pix as { txid?: string } | undefined)?.txid === txid ? item : undefined;
}

/** The invoice when it belongs to the account (and passes `accept`); otherwise 404, whoever owns it. */
export function ownInvoice(item: Item | undefined, accountId: string, accept: (item: Item) => boolean = () => true): Item {
  if (!item || item.accountId !== accountId || !accept(item)) throw new NotFoundError('Invoice not found');
  return item;
}

import type { InvoiceListQuery } from '../../ports/invoices';

export type { InvoiceListQuery };

/** At most this many invoices are read to answer one list call (filters apply after reading). */
export const MAX_LISTED_SCAN = 10_000;

/**
 * The account's invoices from GSI1, newest first; the date range narrows the key condition (the list
 * position is time-ordered, so a Brazil civil-date range is a key range), invoice_no and email filter partially,
 * ignoring case.
 */
export function listInvoices(access: TableAccess, accountId: string, query: InvoiceListQuery): Promise<Item[]> {
  return listInvoiceItems(access.db, access.config.tableName, accountId, query);
}

/** The account's invoice items from GSI1 (listInvoices over a table). */
export function listInvoiceItems(db: Db, table: string, accountId: string, query: InvoiceListQuery): Promise<Item[]> {
  const range =
    query.start_date && query.end_date
      ? {
          ':from': sortableNumericId(numericIdBounds(brazilDayBounds(query.start_date).startMs).lowest),
          ':to': sortableNumericId(numericIdBounds(brazilDayBounds(query.end_date).endMs).highest),
        }
      : undefined;
  const wantedNo = query.invoice_no?.toLowerCase();
  const wantedEmail = query.email?.toLowerCase();
  return queryPage(db, {
    query: {
      TableName: table,
      IndexName: 'GSI1',
      KeyConditionExpression: range ? 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to' : 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.invoiceListPartition(accountId), ...range },
      ScanIndexForward: false,
    },
    page: query.page,
    pageSize: query.limit,
    maxScanned: MAX_LISTED_SCAN,
    keep: (item) => {
      if (
        wantedNo !== undefined &&
        !String(item.invoiceNo ?? '')
          .toLowerCase()
          .includes(wantedNo)
      )
        return undefined;
      if (
        wantedEmail !== undefined &&
        !String(item.payerEmail ?? '')
          .toLowerCase()
          .includes(wantedEmail)
      )
        return undefined;
      return item;
    },
  });
}
