import { brazilDayBounds } from '../dates';
import { queryPage } from '../adapters/dynamo/paging';
import type { Runtime } from '../runtime';
import type { Item } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';

export const WITHDRAW_PAGE_SIZE = 25;

export type WithdrawListQuery = { page: number; start?: string; end?: string; status?: 'PENDING' | 'PAID' | 'CANCELED' };

/** The account's withdrawals from GSI1, newest first, 25 a page; dates narrow the key condition (creation instants). */
export function listWithdrawals(runtime: Runtime, accountId: string, query: WithdrawListQuery): Promise<Item[]> {
  const from = query.start ? new Date(brazilDayBounds(query.start).startMs).toISOString() : '0000';
  const to = query.end ? `${new Date(brazilDayBounds(query.end).endMs).toISOString()}#~` : '9999';
  return queryPage(runtime.db, {
    query: {
      TableName: runtime.config.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.withdrawListPartition(accountId), ':from': from, ':to': to },
      ScanIndexForward: false,
    },
    page: query.page,
    pageSize: WITHDRAW_PAGE_SIZE,
    keep: (item) => (query.status === undefined || item.status === query.status ? item : undefined),
  });
}
