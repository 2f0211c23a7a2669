import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { endInvocation, type InvocationContext, logger, startInvocation, withLogKeys } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { handleSqsBatch } from '../../shared/platform/queue-batch';
import { isDue, maxHopSecondsFor } from '../../shared/domain/delay-hops';
import { messageQueue } from '../../shared/wiring/queue';
import { getRuntime, type Runtime } from '../../shared/wiring/runtime';
import { type DeliveryOutcome, deliverWebhook, type WebhookMessage } from '../../shared/app/webhooks/deliver-webhook';
import { webhookPorts } from '../../shared/wiring/webhooks';
import { type PostLimits, webhookPost } from '../../shared/wiring/webhook-post';

/** Options of the sender; tests shorten the POST's limits (the defaults are the spec's 5 s and 10 s). */
export type SenderOptions = { post?: PostLimits };

export type { WebhookMessage };

/** One message: early ones (a wait longer than one SQS delay) take the next hop without reading anything. */
async function deliver(runtime: Runtime, record: SQSRecord, options: SenderOptions): Promise<DeliveryOutcome> {
  const message = JSON.parse(record.body) as WebhookMessage;
  if (!isDue(message, runtime.clock.now())) return { later: message };
  return deliverWebhook(
    {
      webhooks: webhookPorts(runtime).webhooks,
      post: webhookPost(runtime, options.post ?? {}),
      schedule: (next) => schedule(runtime, next),
      now: () => runtime.clock.now(),
      retryScale: runtime.config.webhooks.retryScale,
    },
    message,
  );
}

/** Sends a message of the webhook queue to arrive when it is due (hops of at most 15 minutes). */
async function schedule(runtime: Runtime, message: WebhookMessage): Promise<void> {
  const queueUrl = runtime.config.webhooks.queueUrl;
  if (!queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not configured: the next attempt cannot be scheduled');
  await messageQueue().sendScheduled(queueUrl, message, runtime.clock.now(), maxHopSecondsFor(runtime.config.webhooks.retryScale));
}

/**
 * The webhook queue's consumer. Each message is one attempt of one event: the sender signs the event's
 * stored body and POSTs it. A failure sends the next attempt's message with an SQS delay to arrive at
 * the schedule's time (1, 5, 15, 60, 180, 360, 720 minutes, × WEBHOOK_RETRY_SCALE; waits over 15
 * minutes are hops of at most 15), up to 8 attempts, then the delivery is marked failed. No message is
 * held in flight between attempts. Each attempt is claimed first (a conditional update of the delivery
 * record setting a lease, `claimUntil`), so a message handed over twice, or early, sends nothing; a
 * stale duplicate (its attempt already recorded) is dropped; a sender that dies mid-attempt leaves a
 * lease that runs out, and the message's next receipt attempts again (at least once). Messages it
 * cannot process at all are retried by SQS and end in the DLQ (alarmed). A batch's messages are
 * handled RECORD_CONCURRENCY at a time; the host's DNS look-up has a hard limit (DNS_TIMEOUT_MS).
 */
export function webhookSender(options: SenderOptions = {}) {
  return async function handler(event: SQSEvent, context?: InvocationContext): Promise<SQSBatchResponse> {
    startInvocation(context, { worker: 'webhooks' });
    try {
      const runtime = getRuntime();
      return await handleSqsBatch(
        event,
        (record) =>
          withLogKeys({ messageId: record.messageId, eventId: eventIdOf(record) }, async () => {
            const outcome = await deliver(runtime, record, options);
            if (outcome !== 'done') await schedule(runtime, outcome.later);
          }),
        (messageId, error) => logger.error('webhook message not processed', { messageId, error: error instanceof Error ? error.message : 'unknown' }),
      );
    } finally {
      flushMetrics();
      endInvocation();
    }
  };
}

/** The event id of a message, for its log lines (undefined when the body is not a webhook message). */
function eventIdOf(record: SQSRecord): string | undefined {
  try {
    const { eventId } = JSON.parse(record.body) as Partial<WebhookMessage>;
    return typeof eventId === 'string' ? eventId.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}

export const handler = webhookSender();
