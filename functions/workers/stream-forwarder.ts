import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { Config } from '../../shared/config';
import { OUTBOX_ITEM_TYPE } from '../../shared/events/outbox';
import { logger } from '../../shared/logger';
import { getSqs } from '../../shared/queue/sqs';
import { getRuntime } from '../../shared/runtime';
import { WITHDRAW_ITEM_TYPE } from '../../shared/withdrawals/record';

/** Where each kind of new item goes: a withdraw to the payout queue, an outbox event to the webhook queue. */
const ROUTES: Readonly<Record<string, { queue: (config: Config) => string | undefined; message: (record: DynamoDBRecord) => object | undefined }>> = {
  [WITHDRAW_ITEM_TYPE]: {
    queue: (c) => c.payouts.queueUrl,
    message: (r) => (r.dynamodb?.NewImage?.reference?.S ? { reference: r.dynamodb.NewImage.reference.S } : undefined),
  },
  [OUTBOX_ITEM_TYPE]: {
    queue: (c) => c.webhooks.queueUrl,
    message: (r) => (r.dynamodb?.NewImage?.eventId?.S ? { eventId: r.dynamodb.NewImage.eventId.S } : undefined),
  },
};

/**
 * The table stream's forwarder: every new withdraw and every outbox event (INSERTs only) becomes a
 * message on its queue. In AWS an event-source filter keeps only those INSERTs; the checks here keep
 * the function correct without it. A failure throws, so the stream batch is retried: nothing is lost.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const { config } = getRuntime();
  const byQueue = new Map<string, object[]>();
  for (const record of event.Records) {
    const route = ROUTES[record.dynamodb?.NewImage?.type?.S ?? ''];
    const message = record.eventName === 'INSERT' ? route?.message(record) : undefined;
    if (!route || !message) continue;
    const queueUrl = route.queue(config);
    if (!queueUrl) throw new Error(`No queue configured for ${record.dynamodb?.NewImage?.type?.S} items`);
    byQueue.set(queueUrl, [...(byQueue.get(queueUrl) ?? []), message]);
  }
  for (const [queueUrl, messages] of byQueue) {
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const out = await getSqs().send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch.map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m) })) }),
      );
      if (out.Failed?.length) throw new Error(`${out.Failed.length} messages were not queued`);
    }
    logger.info('stream items forwarded', { count: messages.length });
  }
}
