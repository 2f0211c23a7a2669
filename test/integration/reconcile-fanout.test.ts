import { randomInt } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as startReconciliation } from '../../functions/workers/reconcile';
import { handler as reconcilePageHandler } from '../../functions/workers/reconcile-page';
import { createAccount } from '../../shared/adapters/dynamo/accounts';
import { ACCOUNT_INDEX_SHARDS, accountIndexAttributes, indexAccount } from '../../shared/adapters/dynamo/account-index';
import { firstMessages, type ReconcileMessage, reconcilePage } from '../../shared/app/ledger/reconcile-run';
import { dynamoReconcileStore } from '../../shared/adapters/dynamo/ledger-reconcile';
import { getSqs } from '../../shared/adapters/sqs/client';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, useLocalStackEnvironment } from '../support/api';
import { sqsEvent } from '../support/sqs-event';

/**
 * The daily reconciliation fanned out (issue 25): its start sends one message per partition of the
 * account index, each message reconciles a bounded page and hands the next page on, so its run time
 * does not grow with the number of accounts. Against the local table, many accounts.
 */
const ACCOUNTS = 160;
const PAGE = 10;

let mine: string[] = [];
let planted = '';

beforeAll(async () => {
  useLocalStackEnvironment();
  const store = accountStore();
  mine = [];
  for (let i = 0; i < ACCOUNTS; i += 8) {
    const batch = await Promise.all(
      Array.from({ length: 8 }, () => createAccount(store, { name: `Recon ${randomInt(1e9)}`, methods: ['pix'], withdrawFeeCents: 0 })),
    );
    mine.push(...batch.map((keysOf) => keysOf.account_id));
  }
  // A difference: one balance shard moved with no ledger entry.
  planted = mine[17] ?? '';
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.balanceShard(planted, 0),
      UpdateExpression: 'SET availableCents = :c',
      ExpressionAttributeValues: { ':c': 4242 },
    }),
  );
}, 120_000);

afterAll(async () => {
  // The planted difference is put back: other tests reconcile every account of the shared table.
  const store = accountStore();
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.balanceShard(planted, 0),
      UpdateExpression: 'SET availableCents = :c',
      ExpressionAttributeValues: { ':c': 0 },
    }),
  );
});

describe('the reconciliation, page by page over the account index', () => {
  it('indexes every new account with an entry of its own (GSI1 ACCOUNTS#<0–15>, by a hash of its id), never the account item', async () => {
    const store = accountStore();
    const read = async (key: { PK: string; SK: string }) =>
      (await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }))).Item;
    const id = mine[0] ?? '';
    expect(await read(keys.accountIndexEntry(id))).toMatchObject({ ...accountIndexAttributes(id), accountId: id });
    // Issue 26: the account item, which the gate updates on every call, is in no index (no second write unit per call).
    const account = await read(keys.account(id));
    expect(account?.accountId).toBe(id);
    expect(account?.GSI1PK).toBeUndefined();
    const shards = new Set(mine.map((each) => accountIndexAttributes(each).GSI1PK));
    expect(shards.size).toBeGreaterThan(ACCOUNT_INDEX_SHARDS / 2);
    // Indexing again (the CLI's backfill) changes nothing.
    expect(await indexAccount(store.db, store.table, id)).toBe(false);
    expect(await indexAccount(store.db, store.table, 'acct_never_created')).toBe(false);
    expect(await read(keys.accountIndexEntry('acct_never_created'))).toBeUndefined();
  });

  it('moves an account indexed the earlier way (GSI1 keys on its account item) to an entry, in one step', async () => {
    const store = accountStore();
    const read = async (key: { PK: string; SK: string }) =>
      (await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }))).Item;
    const id = mine[3] ?? '';
    const index = accountIndexAttributes(id);
    await store.db.send(new DeleteCommand({ TableName: store.table, Key: keys.accountIndexEntry(id) }));
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.account(id),
        UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
        ExpressionAttributeValues: { ':pk': index.GSI1PK, ':sk': index.GSI1SK },
      }),
    );
    expect(await indexAccount(store.db, store.table, id)).toBe(true);
    expect(await read(keys.accountIndexEntry(id))).toMatchObject({ ...index, accountId: id });
    expect((await read(keys.account(id)))?.GSI1PK).toBeUndefined();
    expect(await indexAccount(store.db, store.table, id)).toBe(false);
  });

  it(`covers ${ACCOUNTS} accounts in steps of at most ${PAGE}, each exactly once, and finds the planted difference`, async () => {
    const store = accountStore();
    const seen = new Map<string, number>();
    const differing: string[] = [];
    let steps = 0;
    const reconcile = dynamoReconcileStore(store.db, store.table);
    const pending: ReconcileMessage[] = firstMessages(reconcile, 'test-run');
    expect(pending).toHaveLength(ACCOUNT_INDEX_SHARDS);
    while (pending.length > 0) {
      const message = pending.shift() as ReconcileMessage;
      const outcome = await reconcilePage(reconcile, message, PAGE);
      steps += 1;
      expect(outcome.results.length).toBeLessThanOrEqual(PAGE);
      for (const result of outcome.results) {
        seen.set(result.account_id, (seen.get(result.account_id) ?? 0) + 1);
        if (!result.ok) differing.push(result.account_id);
      }
      if (outcome.next) pending.push(outcome.next);
    }
    for (const id of mine) expect(seen.get(id), id).toBe(1);
    expect(differing).toContain(planted);
    expect(differing.filter((id) => mine.includes(id))).toEqual([planted]);
    // Bounded steps: at least the accounts over the page size (other tests' accounts share the index).
    expect(steps).toBeGreaterThanOrEqual(Math.ceil(ACCOUNTS / PAGE));
  }, 180_000);

  it('runs through its handlers: the start sends one message per partition; each page hands the next on through the queue until every partition is done', async () => {
    const base = getRuntime();
    const queue = (await getSqs().send(new CreateQueueCommand({ QueueName: `reconcile-test-${randomInt(1e9)}` }))).QueueUrl ?? '';
    overrideRuntime({ config: { ...base.config, reconcile: { queueUrl: queue, pageSize: 50 } } });
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    try {
      expect(await startReconciliation()).toMatchObject({ messages: ACCOUNT_INDEX_SHARDS });
      let handled = 0;
      for (let idle = 0; idle < 3;) {
        const out = await getSqs().send(new ReceiveMessageCommand({ QueueUrl: queue, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        const messages = out.Messages ?? [];
        if (messages.length === 0) {
          idle += 1;
          continue;
        }
        idle = 0;
        for (const message of messages) {
          const event: SQSEvent = sqsEvent([message.Body ?? ''], 'reconcile');
          expect((await reconcilePageHandler(event)).batchItemFailures).toEqual([]);
          handled += 1;
        }
      }
      expect(handled).toBeGreaterThanOrEqual(ACCOUNT_INDEX_SHARDS);
      // Each page published its count of differing accounts; the planted one was counted.
      const metrics = lines.filter((line) => line.includes('"LedgerDifferences"'));
      expect(metrics.length).toBe(handled);
      const counts = metrics.map((line) => Number((JSON.parse(line) as { LedgerDifferences: number }).LedgerDifferences));
      expect(counts.some((count) => count >= 1)).toBe(true);
    } finally {
      process.stdout.write = write;
      overrideRuntime({ config: base.config });
      await getSqs().send(new DeleteQueueCommand({ QueueUrl: queue }));
    }
  }, 240_000);
});
