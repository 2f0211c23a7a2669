import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { commitWrites } from './transact';

/**
 * The index of accounts (issue 25): each account has an entry item (`ACCTIX#<id>`) with GSI1 keys in one
 * of ACCOUNT_INDEX_SHARDS partitions (`ACCOUNTS#<n>`, by a hash of its id; sort key the id), so the daily
 * reconciliation pages through accounts without a Scan of the whole table, one bounded page per step and
 * the partitions side by side. The entry is an item of its own, not GSI1 keys on the account item
 * (issue 26): the account item is updated by every authenticated call (the gate's count), and an item
 * in an index pays a second write unit for the index's copy at each update. Written when an account is
 * created; accounts created before get it from the operator's `account reconcile --all` (it finds them
 * with a Scan, once), which also takes the keys off an account item that carried them.
 */
export const ACCOUNT_INDEX_SHARDS = 16;
export const ACCOUNT_INDEX = 'GSI1';

export function accountIndexShard(accountId: string): number {
  return createHash('sha256').update(accountId).digest().readUInt32BE(0) % ACCOUNT_INDEX_SHARDS;
}

export function accountIndexPartition(shard: number): string {
  return `ACCOUNTS#${shard}`;
}

/** The GSI1 keys of an account's index entry. */
export function accountIndexAttributes(accountId: string): { GSI1PK: string; GSI1SK: string } {
  return { GSI1PK: accountIndexPartition(accountIndexShard(accountId)), GSI1SK: accountId };
}

/** An account's entry in the index (written beside the account item when it is created). */
export function accountIndexEntry(accountId: string): Item {
  return { ...keys.accountIndexEntry(accountId), ...accountIndexAttributes(accountId), type: 'accountIndex', accountId };
}

/** A page of account ids of one index partition, and where the next page starts (an opaque cursor), if any. */
export type AccountPage = { accountIds: string[]; next: string | undefined };

/** Reads at most `limit` account ids of partition `shard`, from `cursor` on (the index is eventually consistent: a new account may come a run later). */
export async function accountIdsPage(db: Db, table: string, shard: number, cursor: string | undefined, limit: number): Promise<AccountPage> {
  const out = await db.send(
    new QueryCommand({
      TableName: table,
      IndexName: ACCOUNT_INDEX,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': accountIndexPartition(shard) },
      ProjectionExpression: 'accountId',
      Limit: limit,
      ExclusiveStartKey: cursor === undefined ? undefined : (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>),
    }),
  );
  const accountIds = (out.Items ?? []).map((item) => item.accountId).filter((id): id is string => typeof id === 'string');
  const next = out.LastEvaluatedKey ? Buffer.from(JSON.stringify(out.LastEvaluatedKey), 'utf8').toString('base64url') : undefined;
  return { accountIds, next };
}

/** A condition of indexAccount's transaction failed: the entry exists, or the account does not. */
class NotIndexed extends Error {}

/**
 * Puts an account created before its index entry into the index (idempotent; an account that does not
 * exist is left alone), and takes GSI1 keys off its account item where an earlier version put them
 * there, in one transaction, so the account is never listed twice or not at all. Returns whether the
 * entry was added.
 */
export async function indexAccount(db: Db, table: string, accountId: string): Promise<boolean> {
  const notIndexed = () => new NotIndexed();
  try {
    await commitWrites(db, [
      { Put: { TableName: table, Item: accountIndexEntry(accountId), ConditionExpression: 'attribute_not_exists(PK)' }, onConditionFailed: notIndexed },
      {
        Update: { TableName: table, Key: keys.account(accountId), UpdateExpression: 'REMOVE GSI1PK, GSI1SK', ConditionExpression: 'attribute_exists(PK)' },
        onConditionFailed: notIndexed,
      },
    ]);
    return true;
  } catch (err) {
    if (err instanceof NotIndexed) return false;
    throw err;
  }
}
