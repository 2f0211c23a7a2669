import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../runtime';
import type { Item } from '../storage/dynamo';
import { keys } from '../storage/keys';

export const WITHDRAW_PAGE_SIZE = 25;

export type WithdrawListQuery = { page: number; start?: string; end?: string; status?: 'PENDING' | 'PAID' | 'CANCELED' };

/** Brazil's civil day (UTC−3) as an ISO-instant range of creation times. */
function dayBound(date: string, end: boolean): string {
  return new Date(Date.parse(`${date}T${end ? '23:59:59.999' : '00:00:00.000'}-03:00`)).toISOString();
}

/** The account's withdrawals from GSI1, newest first, 25 a page; dates narrow the key condition. */
export async function listWithdrawals(runtime: Runtime, accountId: string, query: WithdrawListQuery): Promise<Item[]> {
  const from = query.start ? dayBound(query.start, false) : '0000';
  const to = query.end ? `${dayBound(query.end, true)}#~` : '9999';
  const skip = (query.page - 1) * WITHDRAW_PAGE_SIZE;
  const found: Item[] = [];
  let matched = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await runtime.db.send(
      new QueryCommand({
        TableName: runtime.config.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.withdrawListPartition(accountId), ':from': from, ':to': to, ...(query.status ? { ':status': query.status } : {}) },
        ...(query.status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      matched += 1;
      if (matched > skip) found.push(item);
      if (found.length === WITHDRAW_PAGE_SIZE) return found;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return found;
}
