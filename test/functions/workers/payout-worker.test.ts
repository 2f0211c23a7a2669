import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler, type PayoutMessage } from '../../../functions/workers/payout';
import { SIMULATED_BANK_KEYS, simulatedBank } from '../../../shared/adapters/bank/simulated';
import { bank } from '../../../shared/wiring/provider-registry';
import { getSqs } from '../../../shared/adapters/sqs/client';
import { getRuntime, overrideRuntime, type Runtime } from '../../../shared/wiring/runtime';
import { keys } from '../../../shared/adapters/dynamo/keys';
import { newWithdrawReference } from '../../../shared/platform/ids';
import { withdrawalItem } from '../../../shared/adapters/dynamo/withdrawals';
import { accountStore, useLocalStackEnvironment } from '../../support/api';
import { sqsEvent } from '../../support/sqs-event';

/**
 * The payout worker in this process, against the local table and a queue of its own: the bank's
 * time limit and a batch's records handled together. Withdraw items are stored under their keys but
 * not as a stream-forwarded type (and in a sweep partition no sweep reads), so only these tests'
 * worker sees them.
 */

const TEST_SWEEP_PARTITION = 'SWEEP-TEST#payout-worker';

async function pendingWithdraw(pixkey: string): Promise<string> {
  const store = accountStore();
  const reference = newWithdrawReference();
  const createdAt = new Date().toISOString();
  const item = withdrawalItem(
    { status: 'PENDING', accountId: `acct_test_${randomUUID()}`, reference, amountCents: 1_000, feeCents: 0, pixkey, keytype: 'EMAIL', createdAt },
    (await getRuntime().serviceKeys()).personalData,
  );
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...item, type: 'withdraw-under-test', GSI2PK: TEST_SWEEP_PARTITION, GSI2SK: `${createdAt}#${reference}` },
    }),
  );
  return reference;
}

async function withdrawOf(reference: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.withdraw(reference), ConsistentRead: true }))).Item;
}

async function receiveAll(queueUrl: string, expected: number): Promise<PayoutMessage[]> {
  const bodies: PayoutMessage[] = [];
  for (let round = 0; round < 10 && bodies.length < expected; round += 1) {
    const out = await getSqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }));
    bodies.push(...(out.Messages ?? []).map((m) => JSON.parse(String(m.Body)) as PayoutMessage));
  }
  return bodies;
}

describe('payout worker (in-process, against the local table)', () => {
  let base: Runtime;
  let queueUrl: string;

  beforeAll(async () => {
    useLocalStackEnvironment();
    base = getRuntime();
    queueUrl = String((await getSqs().send(new CreateQueueCommand({ QueueName: `payout-unit-${randomUUID()}` }))).QueueUrl);
    // Retries come back at once (scale 0.01 of 5 s rounds to 0 s); the bank gets 200 ms.
    overrideRuntime({ config: { ...base.config, payouts: { ...base.config.payouts, queueUrl, retryScale: 0.01, bankTimeoutMs: 200 } } });
  });

  afterAll(async () => {
    overrideRuntime({ config: base.config });
    await getSqs().send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
  });

  it('a bank that never answers fails the attempt after BANK_TIMEOUT_MS: the withdraw stays PENDING, the retry is queued and pays', async () => {
    const reference = await pendingWithdraw(SIMULATED_BANK_KEYS.slow);
    const first = await handler(sqsEvent([JSON.stringify({ reference })], 'payouts'));
    expect(first.batchItemFailures).toEqual([]);
    const afterTimeout = await withdrawOf(reference);
    expect(afterTimeout?.status).toBe('PENDING');
    expect(afterTimeout?.bankRequestedAt).toBeUndefined();
    expect(afterTimeout?.GSI2PK).toBe(TEST_SWEEP_PARTITION);

    const [retry] = await receiveAll(queueUrl, 1);
    expect(retry).toMatchObject({ reference, attempt: 2, firstFailedAt: expect.any(String), notBefore: expect.any(String) });
    const second = await handler(sqsEvent([JSON.stringify(retry)], 'payouts'));
    expect(second.batchItemFailures).toEqual([]);
    const asked = await withdrawOf(reference);
    expect(asked?.status).toBe('PENDING');
    expect(asked?.bankRequestedAt).toEqual(expect.any(String));
    // Once the bank was asked the withdraw leaves the sweep's index.
    expect(asked?.GSI2PK).toBeUndefined();
    expect(asked?.GSI2SK).toBeUndefined();
    expect((bank(getRuntime().config) as ReturnType<typeof simulatedBank>).requests.get(reference)).toBe(2);
  }, 15_000);

  it('handles a batch’s records together: each failing record is reported once, every other one is handled', async () => {
    const slow = await Promise.all([1, 2, 3, 4, 5].map(() => pendingWithdraw(SIMULATED_BANK_KEYS.slow)));
    const paid = await Promise.all([1, 2].map((n) => pendingWithdraw(`payee${n}@example.com`)));
    const broken = ['{not json', ''];
    const event = sqsEvent([
      ...slow.map((reference) => JSON.stringify({ reference })),
      broken[0] ?? '',
      ...paid.map((reference) => JSON.stringify({ reference })),
      broken[1] ?? '',
    ]);
    const result = await handler(event);
    const brokenIds = event.Records.filter((r) => broken.includes(r.body)).map((r) => r.messageId);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(brokenIds);
    // Each slow bank request timed out and its retry was queued (once); the others were asked.
    const retries = await receiveAll(queueUrl, slow.length);
    expect(retries.map((m) => m.reference).sort()).toEqual([...slow].sort());
    expect(retries.every((m) => m.attempt === 2)).toBe(true);
    for (const reference of paid) expect((await withdrawOf(reference))?.bankRequestedAt).toEqual(expect.any(String));
    for (const reference of slow) expect((await withdrawOf(reference))?.bankRequestedAt).toBeUndefined();
  }, 15_000);
});
