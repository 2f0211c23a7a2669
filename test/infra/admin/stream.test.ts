import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { redriveStreamFailures } from '../../../infra/admin/stream';
import { localAwsConfig } from '../../../infra/local/aws';
import { accountStore, stack } from '../../support/api';

/** A failure record as Lambda's stream mapping writes it (metadata only), naming a window long past: nothing in it to forward. */
function failureRecord(n: number): string {
  return JSON.stringify({
    requestContext: { condition: 'RetryAttemptsExhausted' },
    DDBStreamBatchInfo: { approximateArrivalOfFirstRecord: `2001-01-0${n}T00:00:00Z`, approximateArrivalOfLastRecord: `2001-01-0${n}T00:00:01Z`, batchSize: 1 },
  });
}

describe('stream redrive bounded by --max (npm run admin -- dlq redrive --queue stream-failures --max N)', () => {
  it('takes at most N failure records in one run; the others wait for the next', async () => {
    const sqs = new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
    const queue = (await sqs.send(new CreateQueueCommand({ QueueName: `stream-failures-max-${randomUUID().slice(0, 8)}` }))).QueueUrl ?? '';
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: queue, Entries: [1, 2, 3, 4, 5].map((n) => ({ Id: String(n), MessageBody: failureRecord(n) })) }));
    const store = accountStore();
    const ports = { db: store.db, table: store.table, sqs, streamFailures: queue, queues: { payouts: queue, webhooks: queue, mail: queue } };
    const depth = async () =>
      Number(
        (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue, AttributeNames: ['ApproximateNumberOfMessages'] }))).Attributes
          ?.ApproximateNumberOfMessages,
      );

    expect(await redriveStreamFailures(ports, 2)).toEqual({ failure_records: 2, forwarded: 0, kept: 0 });
    expect(await depth()).toBe(3);
    expect(await redriveStreamFailures(ports)).toEqual({ failure_records: 3, forwarded: 0, kept: 0 });
    expect(await depth()).toBe(0);
  });
});
