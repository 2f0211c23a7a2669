import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetConsistent, snapshotItems } from './batch-get';
import type { RetryBudget } from './contention';
import type { Db } from './dynamo';
import { keys } from './keys';
import { BALANCE_SHARDS, coverPlan, shardCountOf, sumOf } from '../../domain/ledger-shards';
import { type LedgerTransfer, type Movement, withdrawalHold } from '../../domain/ledger';
import { InsufficientBalanceError } from '../../domain/errors';

export { sumOf };

/**
 * An account's balance shards as read: `shards[k]` = available cents of shard k, `reserved[k]` = the
 * cents its withdrawals hold there; the available and the reserved balance are their sums.
 */
export type ShardedBalance = { exists: boolean; count: number; shards: number[]; reserved: number[] };

const PROJECTION = 'PK, SK, availableCents, reservedCents, balanceShards';

const cents = (item: Record<string, unknown> | undefined) => Number(item?.availableCents ?? 0);
const reservedOf = (item: Record<string, unknown> | undefined) => Number(item?.reservedCents ?? 0);

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
  const items = read.slice(0, count);
  if (count > BALANCE_SHARDS) {
    const rest = Array.from({ length: count - BALANCE_SHARDS }, (_, i) => keys.balanceShard(accountId, BALANCE_SHARDS + i));
    items.push(...(await batchGetConsistent(db, table, rest, PROJECTION)));
  }
  return { exists: account !== undefined, count, shards: items.map(cents), reserved: items.map(reservedOf) };
}

/** The available and the reserved balance: the sums of the account's shards (0 for an account that does not exist). */
export async function balanceCents(db: Db, table: string, accountId: string): Promise<{ availableCents: number; reservedCents: number }> {
  const read = await readBalance(db, table, accountId);
  return { availableCents: sumOf(read.shards), reservedCents: sumOf(read.reserved) };
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

/**
 * A withdrawal's hold (the pending phase of its transfer), planned on the shards as read (one consistent
 * BatchGetItem); a refusal rests on a snapshot of the shards (TransactGetItems), never on reads made item
 * by item while other movements land. Throws InsufficientBalanceError when the available sum does not
 * cover amount + fee; the commit throws BalanceMovedError when a shard moved meanwhile (plan again).
 */
export async function planWithdrawalHold(
  db: Db,
  table: string,
  movement: Movement,
  amountCents: number,
  feeCents: number,
  budget?: RetryBudget,
): Promise<LedgerTransfer> {
  const needed = amountCents + feeCents;
  const read = await readBalance(db, table, movement.accountId);
  const plan = coverPlan(read.shards, needed) ?? coverPlan(await snapshotShards(db, table, movement.accountId, read.count, budget), needed);
  if (!plan) throw new InsufficientBalanceError();
  return withdrawalHold(movement, amountCents, feeCents, plan);
}
