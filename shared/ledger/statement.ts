import { brazilDayBounds } from '../dates';
import type { Db, Item } from '../storage/dynamo';
import { keys } from '../storage/keys';
import { queryPage } from '../storage/paging';
import { LEDGER_SK_PREFIX, type LedgerEntryType } from './entries';

export type StatementQuery = { page: number; limit: number; type?: LedgerEntryType; start?: string; end?: string };

/** The SK bounds of a Brazil-time date range (inclusive); open ends take every entry. */
function skRange(start: string | undefined, end: string | undefined): { from: string; to: string } {
  const from = start ? new Date(brazilDayBounds(start).startMs).toISOString() : '';
  // '~' sorts after every character of an ISO time and an id: the whole last millisecond is included.
  const to = end ? `${new Date(brazilDayBounds(end).endMs).toISOString()}~` : '~';
  return { from: `${LEDGER_SK_PREFIX}${from}`, to: `${LEDGER_SK_PREFIX}${to}` };
}

/**
 * One page of an account's ledger entries, newest first: a Query on the account's partition (SK
 * `LEDGER#<time>#<id>`, so a date range is a key range), the type filtered by DynamoDB.
 */
export function statementPage(db: Db, table: string, accountId: string, query: StatementQuery): Promise<Item[]> {
  const { from, to } = skRange(query.start, query.end);
  return queryPage(db, {
    query: {
      TableName: table,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ...(query.type ? { FilterExpression: 'entryType = :type' } : {}),
      ExpressionAttributeValues: { ':pk': keys.account(accountId).PK, ':from': from, ':to': to, ...(query.type ? { ':type': query.type } : {}) },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    page: query.page,
    pageSize: query.limit,
    keep: (item) => item,
  });
}
