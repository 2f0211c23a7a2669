import { randomUUID } from 'node:crypto';
import { GetQueueUrlCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAwsConfig } from '../../infra/local/aws';
import { FAULTS_PK } from '../../infra/local/faults';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { streamForwarder } from '../../shared/platform/queues';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, admin, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { eventually } from '../support/ledger';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * The stream's give-up path on the local stack, which behaves like Lambda's event source mapping:
 * a forwarder that keeps failing on some records → bounded retries with bisection → a failure record
 * in the failure queue (alarmed in AWS) → the stream moves on; then `stream redrive` (or the sweep)
 * forwards from the table what was never forwarded, and each item is delivered exactly once.
 */
let receiver: Receiver;
let swept: Receiver;
const sqs = () => new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });

async function failureQueueUrl(): Promise<string> {
  return String((await sqs().send(new GetQueueUrlCommand({ QueueName: `${streamForwarder.id}-failures` }))).QueueUrl);
}

/** Failure records now in the queue (read without taking them: visibility 0). */
async function failureRecords(): Promise<{ DDBStreamBatchInfo: { batchSize: number; approximateArrivalOfFirstRecord: string } }[]> {
  const out = await sqs().send(new ReceiveMessageCommand({ QueueUrl: await failureQueueUrl(), MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
  return (out.Messages ?? []).map((m) => JSON.parse(String(m.Body)) as { DDBStreamBatchInfo: { batchSize: number; approximateArrivalOfFirstRecord: string } });
}

async function switchForwarder(accountId: string, broken: boolean): Promise<void> {
  const store = accountStore();
  const key = { PK: FAULTS_PK, SK: streamForwarder.id };
  if (broken) await store.db.send(new PutCommand({ TableName: store.table, Item: { ...key, accounts: [accountId] } }));
  else await store.db.send(new DeleteCommand({ TableName: store.table, Key: key }));
}

beforeAll(async () => {
  receiver = await startReceiver('127.0.0.9');
  swept = await startReceiver('127.0.0.8');
});

afterAll(async () => {
  await Promise.all([receiver.close(), swept.close()]);
});

describe('stream failures: the give-up path, the failure queue, redrive and the sweep', () => {
  it('a forwarder failing on an account’s records: failure record queued, the rest of the stream moves on; redrive delivers the webhook and the payout exactly once', async () => {
    const account = await newAccount(undefined, 0);
    const auth = bearer(await tokenFor(account));
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: 'https://127.0.0.9:8443/stream' } })).status).toBe(200);
    await creditAccount(accountStore(), account.account_id, 10_000);
    await switchForwarder(account.account_id, true);
    let reference = '';
    try {
      const ping = await call('POST', '/api/webhook/test', { headers: auth });
      expect(ping.status).toBe(202);
      const withdraw = await call('POST', '/api/pixout/create', {
        headers: { ...auth, 'idempotency-key': `stream-${randomUUID()}` },
        body: { amount: 12.34, pixkey: 'stream@example.com', keytype: 'EMAIL' },
      });
      expect(withdraw.status, withdraw.text).toBe(200);
      reference = (withdraw.json as { withdraw: { reference: string } }).withdraw.reference;
      // The mapping retries with bisection, then gives up on the bad records and writes the failure record.
      const records = await eventually(failureRecords, (list) => list.length > 0, 30_000, 300);
      expect(records.length).toBeGreaterThan(0);
      expect(records[0]?.DDBStreamBatchInfo.batchSize).toBeGreaterThan(0);
      // The stream moved on: another account's withdrawal is forwarded and asked of the bank meanwhile.
      const other = await newAccount(undefined, 0);
      await creditAccount(accountStore(), other.account_id, 1_000);
      const otherReply = await call('POST', '/api/pixout/create', {
        headers: { ...bearer(await tokenFor(other)), 'idempotency-key': `other-${randomUUID()}` },
        body: { amount: 1, pixkey: 'other@example.com', keytype: 'EMAIL' },
      });
      const otherRef = (otherReply.json as { withdraw: { reference: string } }).withdraw.reference;
      const otherItem = await eventually(
        () => withdrawItem(otherRef),
        (item) => typeof item?.bankRequestedAt === 'string',
        30_000,
        300,
      );
      expect(otherItem?.bankRequestedAt).toEqual(expect.any(String));
      // Nothing of the broken account was forwarded: no webhook, no bank request, still in the sweep's index.
      expect(receiver.received).toHaveLength(0);
      expect(await withdrawItem(reference)).toMatchObject({ status: 'PENDING', GSI2PK: expect.stringMatching(/^SWEEP#/) });
      expect((await withdrawItem(reference))?.bankRequestedAt).toBeUndefined();
    } finally {
      await switchForwarder(account.account_id, false);
    }

    const redriven = await admin('stream', 'redrive');
    expect(redriven.code, redriven.stderr).toBe(0);
    expect(redriven.json).toMatchObject({ failure_records: expect.any(Number), kept: 0 });
    expect((redriven.json as { forwarded: number }).forwarded).toBeGreaterThanOrEqual(2);
    expect(await failureRecords()).toHaveLength(0);

    const paid = await eventually(
      () => withdrawItem(reference),
      (item) => typeof item?.bankRequestedAt === 'string',
      30_000,
      300,
    );
    expect(paid?.bankRequestedAt).toEqual(expect.any(String));
    expect(paid?.GSI2PK).toBeUndefined();
    await eventually(
      () => receiver.received.length,
      (n) => n >= 1,
      30_000,
      300,
    );
    // Once: a second redrive finds nothing, and after the sweep's period nothing is forwarded again.
    const again = await admin('stream', 'redrive');
    expect(again.json).toMatchObject({ failure_records: 0, forwarded: 0 });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({ type: 'ping' });
  }, 120_000);
});

describe('the sweep', () => {
  it('forwards, on its own, what the stream gave up on once SWEEP_AFTER_SECONDS have passed: the webhook and the payout, once each', async () => {
    const account = await newAccount(undefined, 0);
    const auth = bearer(await tokenFor(account));
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: 'https://127.0.0.8:8443/swept' } })).status).toBe(200);
    await creditAccount(accountStore(), account.account_id, 10_000);
    const before = (await failureRecords()).length;
    await switchForwarder(account.account_id, true);
    let reference = '';
    try {
      expect((await call('POST', '/api/webhook/test', { headers: auth })).status).toBe(202);
      const withdraw = await call('POST', '/api/pixout/create', {
        headers: { ...auth, 'idempotency-key': `sweep-${randomUUID()}` },
        body: { amount: 3.21, pixkey: 'sweep@example.com', keytype: 'EMAIL' },
      });
      expect(withdraw.status, withdraw.text).toBe(200);
      reference = (withdraw.json as { withdraw: { reference: string } }).withdraw.reference;
      await eventually(failureRecords, (list) => list.length > before, 30_000, 300);
    } finally {
      await switchForwarder(account.account_id, false);
    }
    // No redrive: the local stack's sweep (every 2 s, items older than 20 s) picks them up from the table.
    const paid = await eventually(
      () => withdrawItem(reference),
      (item) => typeof item?.bankRequestedAt === 'string',
      60_000,
      500,
    );
    expect(paid?.bankRequestedAt).toEqual(expect.any(String));
    expect(paid?.GSI2PK).toBeUndefined();
    await eventually(
      () => swept.received.length,
      (n) => n >= 1,
      30_000,
      300,
    );
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(swept.received).toHaveLength(1);
    // The failure records stay for on-call (alarmed); a redrive now has nothing left to forward.
    // (Another test's item still in flight in the record's window may be forwarded by it: only ours are asserted.)
    const redriven = await admin('stream', 'redrive');
    expect(redriven.json).toMatchObject({ kept: 0 });
    expect((redriven.json as { failure_records: number }).failure_records).toBeGreaterThan(0);
    const eventId = (JSON.parse(swept.received[0]?.body ?? '{}') as { id: string }).id;
    const store = accountStore();
    const event = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.event(eventId), ConsistentRead: true }))).Item;
    expect(event).toMatchObject({ eventId });
    expect(event?.GSI2PK).toBeUndefined();
    expect((await withdrawItem(reference))?.GSI2PK).toBeUndefined();
  }, 120_000);
});

async function withdrawItem(reference: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.withdraw(reference), ConsistentRead: true }))).Item;
}
