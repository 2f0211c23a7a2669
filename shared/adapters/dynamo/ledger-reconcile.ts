import { ACCOUNT_INDEX_SHARDS, accountIdsPage } from './account-index';
import type { ReconcileStore } from '../../ports/reconcile';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type BalanceSums, type Reconciliation, reconciliation } from '../../domain/reconciliation';
import type { Db } from './dynamo';
import { keys } from './keys';
import { readBalance, sumOf } from './ledger-balance';

export { type Reconciliation, reconciliation };

/** The balance: the sums of the account's shards (one BatchGetItem); undefined when the account does not exist. */
async function balanceSums(db: Db, table: string, accountId: string): Promise<(BalanceSums & { count: number }) | undefined> {
  const read = await readBalance(db, table, accountId);
  return read.exists ? { availableCents: sumOf(read.shards), reservedCents: sumOf(read.reserved), count: read.count } : undefined;
}

/** The sums of the entries of one ledger partition (all pages, strongly consistent): their available and their reserved parts. */
async function partitionSums(db: Db, table: string, partition: string): Promise<BalanceSums> {
  const sum = { availableCents: 0, reservedCents: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ProjectionExpression: 'amountCents, reservedCents',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) {
      sum.availableCents += Number(item.amountCents ?? 0);
      sum.reservedCents += Number(item.reservedCents ?? 0);
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return sum;
}

/** The sums of every ledger entry of the account: its `shards` entry partitions (all pages, strongly consistent). */
export async function ledgerSums(db: Db, table: string, accountId: string, shards: number): Promise<BalanceSums> {
  const sums = await Promise.all(Array.from({ length: shards }, (_, k) => partitionSums(db, table, keys.ledgerPartition(accountId, k))));
  return { availableCents: sumOf(sums.map((s) => s.availableCents)), reservedCents: sumOf(sums.map((s) => s.reservedCents)) };
}

export class UnknownAccountError extends Error {
  constructor(accountId: string) {
    super(`No account ${accountId}`);
  }
}

/**
 * Reconciles one account: both sums of its balance shards (available, reserved) against the sums of its
 * entries (all shards' partitions). Movements may land while it reads (the shards and the entries are read apart): the
 * shards are read before and after the entries, and the reading is repeated until both sums agree, so
 * a difference reported is a real one, not a movement in flight.
 */
export async function reconcileAccount(db: Db, table: string, accountId: string, attempts = 5): Promise<Reconciliation> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await balanceSums(db, table, accountId);
    if (before === undefined) throw new UnknownAccountError(accountId);
    const sums = await ledgerSums(db, table, accountId, before.count);
    const after = await balanceSums(db, table, accountId);
    const settled = after?.availableCents === before.availableCents && after.reservedCents === before.reservedCents;
    if (settled || attempt >= attempts) return reconciliation(accountId, after ?? before, sums);
  }
}

/** Every account id of the table (a Scan: for the operator and the daily job, never a request). */
export async function allAccountIds(db: Db, table: string): Promise<string[]> {
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new ScanCommand({
        TableName: table,
        // The account items (one per account; its balance shards are many).
        FilterExpression: 'SK = :sk',
        ExpressionAttributeValues: { ':sk': keys.account('').SK },
        // The IAM grant allows a Scan that names its attributes (PK, SK, accountId) and returns only those.
        Select: 'SPECIFIC_ATTRIBUTES',
        ProjectionExpression: 'accountId',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) if (typeof item.accountId === 'string') ids.push(item.accountId);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return ids.sort();
}

/** The daily reconciliation's reads over the table: the account index's pages, each account reconciled. */
export function dynamoReconcileStore(db: Db, table: string): ReconcileStore {
  return {
    partitions: ACCOUNT_INDEX_SHARDS,
    accountIds: (partition, cursor, limit) => accountIdsPage(db, table, partition, cursor, limit),
    async reconcile(accountId) {
      try {
        return await reconcileAccount(db, table, accountId);
      } catch (err) {
        if (err instanceof UnknownAccountError) return undefined;
        throw err;
      }
    },
  };
}
