import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue, DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/workers/stream-forwarder';
import { redeliveryWrites } from '../../../shared/adapters/dynamo/redelivery';
import { getSqs } from '../../../shared/adapters/sqs/client';
import { getRuntime, overrideRuntime, type Runtime } from '../../../shared/wiring/runtime';
import { useLocalStackEnvironment } from '../../support/api';

const insert = (seq: number, item: Record<string, unknown>): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(seq), NewImage: marshall(item) as unknown as Record<string, StreamAttributeValue> },
});

let base: Runtime;
let webhooks = '';

beforeAll(async () => {
  useLocalStackEnvironment();
  base = getRuntime();
  webhooks = String((await getSqs().send(new CreateQueueCommand({ QueueName: `forwarder-unit-${randomUUID()}` }))).QueueUrl);
  // The payout queue does not exist: its sends fail.
  const missing = webhooks.replace(/forwarder-unit-[^/]+$/, `missing-${randomUUID()}`);
  overrideRuntime({
    config: { ...base.config, webhooks: { ...base.config.webhooks, queueUrl: webhooks }, payouts: { ...base.config.payouts, queueUrl: missing } },
  });
});

afterAll(async () => {
  overrideRuntime({ config: base.config });
  await getSqs().send(new DeleteQueueCommand({ QueueUrl: webhooks }));
});

describe('stream forwarder', () => {
  it('reports the first record whose message could not be queued (ReportBatchItemFailures), after queuing the others', async () => {
    const events = ['evt_a', 'evt_b'];
    const result = await handler({
      Records: [
        insert(101, { PK: `EVT#${events[0]}`, SK: 'EVT', type: 'event', eventId: events[0] }),
        insert(102, { PK: 'WD#WD-AAAAAAAAAAAA', SK: 'WITHDRAW', type: 'withdraw', reference: 'WD-AAAAAAAAAAAA' }),
        insert(103, { PK: `EVT#${events[1]}`, SK: 'EVT', type: 'event', eventId: events[1] }),
        insert(104, { PK: 'ACCT#x', SK: 'ACCOUNT', type: 'account' }),
      ],
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '102' }] });
    const queued = await getSqs().send(new ReceiveMessageCommand({ QueueUrl: webhooks, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect(
      (queued.Messages ?? [])
        .map((m) => JSON.parse(String(m.Body)) as { eventId: string })
        .map((m) => m.eventId)
        .sort(),
    ).toEqual(events);
  });

  it('forwards a redelivery request (the item a webhook.redelivery_requested change puts) as attempt 1 of a new series, not before it was asked', async () => {
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    const at = '2026-11-28T09:00:00.000Z';
    const writes = redeliveryWrites('t', { kind: 'webhook.redelivery_requested', accountId: 'acct_1', eventId, at, reopen: { status: 'failed', attempts: 8 } });
    const put = writes.find((w) => w.Put)?.Put?.Item;
    expect(put).toMatchObject({ type: 'redelivery', eventId, GSI2PK: expect.stringMatching(/^SWEEP#/) });
    expect(await handler({ Records: [insert(201, put ?? {})] })).toEqual({ batchItemFailures: [] });
    const queued = await getSqs().send(new ReceiveMessageCommand({ QueueUrl: webhooks, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect((queued.Messages ?? []).map((m) => JSON.parse(String(m.Body)) as unknown)).toEqual([{ eventId, attempt: 1, notBefore: at }]);
  });

  it('answers no failure for a batch with nothing to forward', async () => {
    expect(await handler({ Records: [insert(1, { PK: 'ACCT#x', SK: 'ACCOUNT', type: 'account' })] })).toEqual({ batchItemFailures: [] });
  });
});
