import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand, TransactGetCommand } from '@aws-sdk/lib-dynamodb';
import { type RetryBudget, retryBudget, retryTransient } from './contention';
import type { Db, Item } from './dynamo';
import type { ItemKey } from './keys';

/** BatchGetItem takes at most 100 keys a call. */
const BATCH_LIMIT = 100;
/** How often unprocessed keys (throttled reads) are asked for again before giving up. */
const UNPROCESSED_ATTEMPTS = 8;

const keyId = (key: Record<string, unknown>) => `${String(key.PK)}\u0000${String(key.SK)}`;

/**
 * Strongly consistent reads of several items in one BatchGetItem (a call per 100 keys): the items in
 * the order of `keys`, undefined where none exists. Keys DynamoDB leaves unprocessed are asked for
 * again (jittered); `projection` names the attributes read (keys included by the caller; `names` for
 * the reserved words it uses).
 * Each item is read consistently, not the set at one instant: a caller that needs a snapshot uses
 * `snapshotItems`.
 */
export async function batchGetConsistent(
  db: Db,
  table: string,
  keys: readonly ItemKey[],
  projection?: string,
  names?: Record<string, string>,
): Promise<(Item | undefined)[]> {
  const found = new Map<string, Item>();
  for (let start = 0; start < keys.length; start += BATCH_LIMIT) {
    let pending: Record<string, unknown>[] = keys.slice(start, start + BATCH_LIMIT).map((key) => ({ PK: key.PK, SK: key.SK }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= UNPROCESSED_ATTEMPTS) throw new Error('BatchGetItem kept leaving keys unprocessed');
      if (attempt > 0) await sleep(Math.floor(Math.random() * Math.min(400, 15 * 2 ** attempt)));
      const out = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [table]: {
              Keys: pending,
              ConsistentRead: true,
              ...(projection ? { ProjectionExpression: projection } : {}),
              ...(names ? { ExpressionAttributeNames: names } : {}),
            },
          },
        }),
      );
      for (const item of out.Responses?.[table] ?? []) found.set(keyId(item), item);
      pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return keys.map((key) => found.get(keyId(key)));
}

/**
 * The items at ONE instant (TransactGetItems: a serializable snapshot, at most 100 keys, twice the read
 * cost): for a decision that must hold for the set, not item by item. A read cancelled by concurrent
 * writes is retried within the budget (then 503, as for writes).
 */
export async function snapshotItems(db: Db, table: string, keys: readonly ItemKey[], budget: RetryBudget = retryBudget()): Promise<(Item | undefined)[]> {
  if (keys.length > BATCH_LIMIT) throw new Error('A snapshot reads at most 100 items');
  const out = await retryTransient(
    () => db.send(new TransactGetCommand({ TransactItems: keys.map((key) => ({ Get: { TableName: table, Key: { PK: key.PK, SK: key.SK } } })) })),
    budget,
  );
  return (out.Responses ?? []).map((response) => response.Item);
}
