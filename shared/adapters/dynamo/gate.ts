import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accountOf } from './account-record';
import type { GateStore } from '../../ports/gate';
import type { RetryBudget } from './contention';
import type { Db } from './dynamo';
import { keys } from './keys';
import { hitAccountCounter, hitIpCounter } from './rate-counter';

/** The gate's counters over the table, within one request's retry budget. */
export function dynamoGate(db: Db, table: string, budget?: RetryBudget): GateStore {
  return {
    async countAccountCall(hit) {
      const { item, quota } = await hitAccountCounter(
        db,
        { table, accountId: hit.accountId, keyVersion: hit.keyVersion, limit: hit.limit, nowMs: hit.nowMs, returnItem: hit.withAccount },
        budget,
      );
      return { account: item ? accountOf(item) : undefined, quota };
    },
    countIpCall: (hit) => hitIpCounter(db, { table, ...hit }, budget),
    async keyState(accountId) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'kv, disabled' }));
      return out.Item ? { keyVersion: Number(out.Item.kv), disabled: out.Item.disabled === true } : undefined;
    },
  };
}
