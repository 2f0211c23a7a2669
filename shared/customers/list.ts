import type { Db } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { queryPage } from '../adapters/dynamo/paging';
import { type CustomerFilters, type CustomerView, customerView, matchesFilters } from './record';

export type CustomerPage = { page: number; limit: number; filters: CustomerFilters };

/** At most this many customers are read to answer one list call (filters apply after decryption). */
export const MAX_SCANNED = 10_000;

/**
 * The caller's customers, newest first (sort keys are zero-padded time-ordered ids), filtered and
 * paged. Filters run after the documents are unsealed, so they are applied here.
 */
export function listCustomers(db: Db, table: string, accountId: string, query: CustomerPage, personalDataKey: Buffer): Promise<CustomerView[]> {
  return queryPage(db, {
    query: {
      TableName: table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).PK, ':prefix': keys.customerPrefix },
      ScanIndexForward: false,
    },
    page: query.page,
    pageSize: query.limit,
    maxScanned: MAX_SCANNED,
    keep: (item) => {
      const customer = customerView(item, personalDataKey);
      return matchesFilters(customer, query.filters) ? customer : undefined;
    },
  });
}
