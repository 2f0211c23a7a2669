import { createHash } from 'node:crypto';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './dynamo';
import { isConditionalCheckFailed } from './dynamo';
import { keys } from './keys';

/**
 * The index of accounts (issue 25): each account item carries GSI1 keys in one of ACCOUNT_INDEX_SHARDS
 * partitions (`ACCOUNTS#<n>`, by a hash of its id; sort key the id), so the daily reconciliation pages
 * through accounts without a Scan of the whole table, one bounded page per step and the partitions
 * side by side. Set when an account is created; accounts created before the index get it from the
 * operator's `account reconcile --all` (it finds them with a Scan, once).
 */
export const ACCOUNT_INDEX_SHARDS = 16;
export const ACCOUNT_INDEX = 'GSI1';

export function accountIndexShard(accountId: string): number {
  return createHash('sha256').update(accountId).digest().readUInt32BE(0) % ACCOUNT_INDEX_SHARDS;
}

export function accountIndexPartition(shard: number): string {
  return `ACCOUNTS#${shard}`;
}

/** The GSI1 keys of an account item. */
export function accountIndexAttributes(accountId: string): { GSI1PK: string; GSI1SK: string } {
  return { GSI1PK: accountIndexPartition(accountIndexShard(accountId)), GSI1SK: accountId };
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

/** Puts an account created before the index into it (idempotent; an account that does not exist is left alone). Returns whether it was added. */
export async function indexAccount(db: Db, table: string, accountId: string): Promise<boolean> {
  const index = accountIndexAttributes(accountId);
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.account(accountId),
        UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI1PK)',
        ExpressionAttributeValues: { ':pk': index.GSI1PK, ':sk': index.GSI1SK },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return false;
    throw err;
  }
}
