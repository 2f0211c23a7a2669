import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { hopDelaySeconds, MAX_DELAY_SECONDS } from '../../domain/delay-hops';
import type { MessageQueue } from '../../ports/queue';

/** SQS limits a batch to 10 messages. */
export const SQS_BATCH_LIMIT = 10;

/** The message queues over an SQS client. */
export function sqsQueue(sqs: SQSClient): MessageQueue {
  return {
    async send(queueUrl, body) {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
    },
    async sendScheduled(queueUrl, body, now, maxHopSeconds = MAX_DELAY_SECONDS) {
      const delay = body.notBefore === undefined ? 0 : hopDelaySeconds(new Date(body.notBefore), now, maxHopSeconds);
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body), DelaySeconds: delay }));
    },
    async sendBatch(queueUrl, bodies) {
      if (bodies.length > SQS_BATCH_LIMIT) throw new Error(`An SQS batch carries at most ${SQS_BATCH_LIMIT} messages`);
      const out = await sqs.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: bodies.map((body, n) => ({ Id: String(n), MessageBody: JSON.stringify(body) })) }),
      );
      return (out.Failed ?? []).map((failed) => Number(failed.Id));
    },
  };
}
