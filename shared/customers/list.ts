import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../storage/dynamo';
import { keys } from '../storage/keys';
import { type CustomerFilters, type CustomerView, customerView, matchesFilters } from './record';

export type CustomerPage = { page: number; limit: number; filters: CustomerFilters };

/** At most this many customers are read to answer one list call (filters apply after decryption). */
export const MAX_SCANNED = 10_000;

/**
 * The caller's customers, newest first (sort keys are zero-padded time-ordered ids), filtered and
 * paged. Filters run after the documents are unsealed, so they are applied here, page by page.
 */
export async function listCustomers(db: Db, table: string, accountId: string, query: CustomerPage, personalDataKey: Buffer): Promise<CustomerView[]> {
  const skip = (query.page - 1) * query.limit;
  const found: CustomerView[] = [];
  let matched = 0;
  let scanned = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.account(accountId).PK, ':prefix': keys.customerPrefix },
        ScanIndexForward: false,
        Limit: Math.min(100, skip + query.limit + 1),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      scanned += 1;
      const customer = customerView(item, personalDataKey);
      if (!matchesFilters(customer, query.filters)) continue;
      matched += 1;
      if (matched > skip) found.push(customer);
      if (found.length === query.limit) return found;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && scanned < MAX_SCANNED);
  return found;
}
