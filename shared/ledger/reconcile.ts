import { GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { formatCents } from '../money';
import type { Db } from '../storage/dynamo';
import { keys } from '../storage/keys';
import { LEDGER_SK_PREFIX } from './entries';

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

async function balanceCents(db: Db, table: string, accountId: string): Promise<number | undefined> {
  const out = await db.send(new GetCommand({ TableName: table, Key: keys.balance(accountId), ConsistentRead: true, ProjectionExpression: 'availableCents' }));
  return out.Item ? Number(out.Item.availableCents ?? 0) : undefined;
}

/** The sum of every ledger entry of the account (all pages, strongly consistent). */
export async function ledgerSumCents(db: Db, table: string, accountId: string): Promise<number> {
  let sum = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.account(accountId).PK, ':prefix': LEDGER_SK_PREFIX },
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

export class UnknownAccountError extends Error {
  constructor(accountId: string) {
    super(`No account ${accountId}`);
  }
}

/**
 * Reconciles one account. Movements may land while it reads (the balance and its entries are read
 * apart): the balance is read before and after the entries, and the reading is repeated until both
 * balance reads agree, so a difference reported is a real one, not a movement in flight.
 */
export async function reconcileAccount(db: Db, table: string, accountId: string, attempts = 5): Promise<Reconciliation> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await balanceCents(db, table, accountId);
    if (before === undefined) throw new UnknownAccountError(accountId);
    const sum = await ledgerSumCents(db, table, accountId);
    const after = await balanceCents(db, table, accountId);
    if (after === before || attempt >= attempts) return reconciliation(accountId, after ?? before, sum);
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
        FilterExpression: 'SK = :sk',
        ExpressionAttributeValues: { ':sk': 'BALANCE' },
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
