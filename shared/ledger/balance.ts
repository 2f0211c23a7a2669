import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetConsistent, snapshotItems } from '../adapters/dynamo/batch-get';
import type { RetryBudget } from '../adapters/dynamo/contention';
import type { Db } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { BALANCE_SHARDS, shardCountOf, sumOf } from './shards';

export { sumOf };

/** An account's balance shards as read: `shards[k]` = cents of shard k; the balance is their sum. */
export type ShardedBalance = { exists: boolean; count: number; shards: number[] };

const PROJECTION = 'PK, SK, availableCents, balanceShards';

const cents = (item: Record<string, unknown> | undefined) => Number(item?.availableCents ?? 0);

/**
 * Reads an account's balance shards, each strongly consistent, in ONE BatchGetItem with the account
 * item (which says how many shards the account has: `balanceShards`, the default for an item without
 * one). An account with more shards than the default costs a second call for the rest.
 * `exists`: the account item exists.
 */
export async function readBalance(db: Db, table: string, accountId: string): Promise<ShardedBalance> {
  const first = Array.from({ length: BALANCE_SHARDS }, (_, k) => keys.balanceShard(accountId, k));
  const [account, ...read] = await batchGetConsistent(db, table, [keys.account(accountId), ...first], PROJECTION);
  const count = shardCountOf(account);
  const shards = read.slice(0, count).map(cents);
  if (count > BALANCE_SHARDS) {
    const rest = Array.from({ length: count - BALANCE_SHARDS }, (_, i) => keys.balanceShard(accountId, BALANCE_SHARDS + i));
    shards.push(...(await batchGetConsistent(db, table, rest, PROJECTION)).map(cents));
  }
  return { exists: account !== undefined, count, shards };
}

/** The available balance: the sum of the account's shards (0 for an account that does not exist). */
export async function availableCents(db: Db, table: string, accountId: string): Promise<number> {
  return sumOf((await readBalance(db, table, accountId)).shards);
}

/** The shards at one instant (TransactGetItems): for refusing a debit, which must rest on a sum that existed. */
export async function snapshotShards(db: Db, table: string, accountId: string, count: number, budget?: RetryBudget): Promise<number[]> {
  const items = await snapshotItems(
    db,
    table,
    Array.from({ length: count }, (_, k) => keys.balanceShard(accountId, k)),
    budget,
  );
  return items.map(cents);
}

/** The account's shard count alone (a GetItem of the account item's `balanceShards`): for reading its entry partitions. */
export async function accountShardCount(db: Db, table: string, accountId: string): Promise<number> {
  const out = await db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ProjectionExpression: 'balanceShards', ConsistentRead: true }));
  return shardCountOf(out.Item);
}
