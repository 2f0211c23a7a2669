import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../http/errors';
import type { Runtime } from '../runtime';
import type { Item } from '../storage/dynamo';
import { type ItemKey, keys } from '../storage/keys';
import { numericIdBounds, sortableNumericId } from '../ids';
import { invoiceView } from './record';

/** An invoice by reference, strongly consistent; undefined when there is none. */
export async function invoiceByReference(runtime: Runtime, reference: string): Promise<Item | undefined> {
  const out = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.invoice(reference), ConsistentRead: true }));
  return out.Item;
}

/** An invoice through a pointer item (numeric id or txid reservation). */
export async function invoiceByPointer(runtime: Runtime, pointer: ItemKey): Promise<Item | undefined> {
  const out = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: pointer, ConsistentRead: true }));
  return typeof out.Item?.reference === 'string' ? invoiceByReference(runtime, out.Item.reference) : undefined;
}

/** The invoice when it belongs to the account (and passes `accept`); otherwise 404, whoever owns it. */
export function ownInvoice(item: Item | undefined, accountId: string, accept: (item: Item) => boolean = () => true): Item {
  if (!item || item.accountId !== accountId || !accept(item)) throw new NotFoundError('Invoice not found');
  return item;
}

/** The `{"invoice": …}` answer of the lookups. */
export async function invoiceAnswer(runtime: Runtime, item: Item) {
  const serviceKeys = await runtime.serviceKeys();
  return { status: 200, body: { invoice: invoiceView(item, serviceKeys, runtime.config.publicBaseUrl) } };
}

export type InvoiceListQuery = { page: number; limit: number; invoice_no?: string; email?: string; start_date?: string; end_date?: string };

/** The sort-key bound of a Brazil civil date's first or last instant (ids are time-ordered). */
function idBoundOf(date: string, endOfDay: boolean): string {
  const bounds = numericIdBounds(Date.parse(`${date}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}-03:00`));
  return sortableNumericId(endOfDay ? bounds.highest : bounds.lowest);
}

/** At most this many invoices are read to answer one list call (filters apply after reading). */
export const MAX_LISTED_SCAN = 10_000;

/**
 * The account's invoices from GSI1, newest first; the date range narrows the key condition (ids are
 * time-ordered), invoice_no and email filter partially, ignoring case.
 */
export async function listInvoices(runtime: Runtime, accountId: string, query: InvoiceListQuery): Promise<Item[]> {
  const skip = (query.page - 1) * query.limit;
  const range = query.start_date && query.end_date ? { ':from': idBoundOf(query.start_date, false), ':to': idBoundOf(query.end_date, true) } : undefined;
  const wantedNo = query.invoice_no?.toLowerCase();
  const wantedEmail = query.email?.toLowerCase();
  const found: Item[] = [];
  let matched = 0;
  let scanned = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await runtime.db.send(
      new QueryCommand({
        TableName: runtime.config.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: range ? 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to' : 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.invoiceListPartition(accountId), ...range },
        ScanIndexForward: false,
        Limit: Math.min(100, skip + query.limit + 1),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      scanned += 1;
      if (wantedNo !== undefined && !String(item.invoiceNo ?? '').toLowerCase().includes(wantedNo)) continue;
      if (wantedEmail !== undefined && !String(item.payerEmail ?? '').toLowerCase().includes(wantedEmail)) continue;
      matched += 1;
      if (matched > skip) found.push(item);
      if (found.length === query.limit) return found;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && scanned < MAX_LISTED_SCAN);
  return found;
}
