import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/logger';
import { getSqs } from '../../shared/queue/sqs';
import { getRuntime } from '../../shared/runtime';
import { WITHDRAW_ITEM_TYPE } from '../../shared/withdrawals/record';

/**
 * The table stream's forwarder: every new withdraw (an INSERT of a `withdraw` item) becomes a message
 * on the payout queue. In AWS an event-source filter keeps only those INSERTs; the check here keeps
 * the function correct without it. A failure throws, so the stream batch is retried: nothing is lost.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const { config } = getRuntime();
  const references = event.Records.filter((r) => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.type?.S === WITHDRAW_ITEM_TYPE)
    .map((r) => r.dynamodb?.NewImage?.reference?.S)
    .filter((reference): reference is string => typeof reference === 'string');
  if (references.length === 0) return;
  if (!config.payouts.queueUrl) throw new Error('PAYOUT_QUEUE_URL is not configured');
  for (let i = 0; i < references.length; i += 10) {
    const batch = references.slice(i, i + 10);
    const out = await getSqs().send(
      new SendMessageBatchCommand({ QueueUrl: config.payouts.queueUrl, Entries: batch.map((reference, n) => ({ Id: String(n), MessageBody: JSON.stringify({ reference }) })) }),
    );
    if (out.Failed?.length) throw new Error(`${out.Failed.length} payout messages were not queued`);
  }
  logger.info('withdrawals queued for the bank', { count: references.length });
}
