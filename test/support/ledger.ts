import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { accountShardCount, readBalance } from '../../shared/adapters/dynamo/ledger-balance';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, call } from './api';

export type OutboxEvent = {
  id: string;
  type: string;
  created: number;
  api_version: string;
  data: Record<string, { reference?: string; status?: string; total?: string }>;
};

/** The reserved balance (held by withdrawals in flight) the API reports for these credentials. */
export async function reservedBalance(headers: Record<string, string>): Promise<string> {
  return ((await call('GET', '/api/balance', { headers })).json as { balance: { reserved: string } }).balance.reserved;
}

/** The available balance the API reports for these credentials. */
export async function availableBalance(headers: Record<string, string>): Promise<string> {
  return ((await call('GET', '/api/balance', { headers })).json as { balance: { available: string } }).balance.available;
}

/** Every item the filter keeps, read straight from the table (a Scan reads at most 1 MB a page: all pages). */
export async function scanAll(filter?: {
  FilterExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}): Promise<Item[]> {
  const store = accountStore();
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(new ScanCommand({ TableName: store.table, ...filter, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every outbox event of an account, read straight from the table. */
export async function outboxEventsOf(accountId: string): Promise<OutboxEvent[]> {
  const items = await scanAll({
    FilterExpression: '#t = :e AND accountId = :a',
    ExpressionAttributeNames: { '#t': 'type' },
    ExpressionAttributeValues: { ':e': 'event', ':a': accountId },
  });
  return items.map((i) => i.event as OutboxEvent);
}

/** The account's outbox events about one invoice or withdraw (by its reference). */
export async function eventsAbout(accountId: string, reference: string): Promise<OutboxEvent[]> {
  return (await outboxEventsOf(accountId)).filter((e) => Object.values(e.data).some((object) => object?.reference === reference));
}

/**
 * Reads until `ok` holds or the time is up; returns the last value read (the test asserts on it).
 * Polling an API route spends the account's 60 calls a minute: give such reads a longer interval.
 */
export async function eventually<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The items of one GSI1 list partition (an account's invoices, withdrawals or deliveries). */
export async function listedItems(partition: string): Promise<Item[]> {
  const store = accountStore();
  const out = await store.db.send(
    new QueryCommand({ TableName: store.table, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': partition } }),
  );
  return out.Items ?? [];
}

/** The account's balance shards as stored (index = shard), read consistently: the balance is their sum. */
export async function balanceShards(accountId: string): Promise<number[]> {
  const store = accountStore();
  return (await readBalance(store.db, store.table, accountId)).shards;
}

/** The reserved part of each balance shard (what withdrawals in flight hold there). */
export async function reservedShards(accountId: string): Promise<number[]> {
  const store = accountStore();
  return (await readBalance(store.db, store.table, accountId)).reserved;
}

/** The account's available balance read straight from the table: the sum of its shards. */
export async function storedBalanceCents(accountId: string): Promise<number> {
  return (await balanceShards(accountId)).reduce((sum, cents) => sum + cents, 0);
}

/** Every ledger entry of the account (all its shards' entry partitions, consistent, every page). */
export async function ledgerEntriesOf(accountId: string): Promise<Item[]> {
  const store = accountStore();
  const count = await accountShardCount(store.db, store.table, accountId);
  const partitions = await Promise.all(
    Array.from({ length: count }, async (_, shard) => {
      const items: Item[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await store.db.send(
          new QueryCommand({
            TableName: store.table,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': keys.ledgerPartition(accountId, shard) },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    }),
  );
  return partitions.flat();
}
