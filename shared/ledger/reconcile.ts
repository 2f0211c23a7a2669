import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { formatCents } from '../domain/money';
import type { Db } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { readBalance, sumOf } from './balance';

/** One account's reconciliation: its balance against the sum of its ledger entries. */
export type Reconciliation = { account_id: string; balance: string; ledger_sum: string; difference: string; ok: boolean };

export function reconciliation(accountId: string, balanceCents: number, ledgerSumCents: number): Reconciliation {
  const difference = balanceCents - ledgerSumCents;
  return {
    account_id: accountId,
    balance: formatCents(balanceCents),
    ledger_sum: formatCents(ledgerSumCents),
    difference: formatCents(difference),
    ok: difference === 0,
  };
}

/** The balance: the sum of the account's shards (one BatchGetItem); undefined when the account does not exist. */
async function balanceCents(db: Db, table: string, accountId: string): Promise<{ cents: number; count: number } | undefined> {
  const read = await readBalance(db, table, accountId);
  return read.exists ? { cents: sumOf(read.shards), count: read.count } : undefined;
}

/** The sum of the entries of one ledger partition (all pages, strongly consistent). */
async function partitionSumCents(db: Db, table: string, partition: string): Promise<number> {
  let sum = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ProjectionExpression: 'amountCents',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) sum += Number(item.amountCents ?? 0);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return sum;
}

/** The sum of every ledger entry of the account: its `shards` entry partitions (all pages, strongly consistent). */
export async function ledgerSumCents(db: Db, table: string, accountId: string, shards: number): Promise<number> {
  const sums = await Promise.all(Array.from({ length: shards }, (_, k) => partitionSumCents(db, table, keys.ledgerPartition(accountId, k))));
  return sumOf(sums);
}

export class UnknownAccountError extends Error {
  constructor(accountId: string) {
    super(`No account ${accountId}`);
  }
}

/**
 * Reconciles one account: the sum of its balance shards against the sum of its entries (all shards'
 * partitions). Movements may land while it reads (the shards and the entries are read apart): the
 * shards are read before and after the entries, and the reading is repeated until both sums agree, so
 * a difference reported is a real one, not a movement in flight.
 */
export async function reconcileAccount(db: Db, table: string, accountId: string, attempts = 5): Promise<Reconciliation> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await balanceCents(db, table, accountId);
    if (before === undefined) throw new UnknownAccountError(accountId);
    const sum = await ledgerSumCents(db, table, accountId, before.count);
    const after = await balanceCents(db, table, accountId);
    if (after?.cents === before.cents || attempt >= attempts) return reconciliation(accountId, (after ?? before).cents, sum);
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
