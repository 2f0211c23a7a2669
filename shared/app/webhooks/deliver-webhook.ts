import { type DeliveryAttemptRecord, isSlowAnswer, subscribes } from '../../domain/webhooks';
import { ATTEMPT_LEASE_SECONDS, deliveryTurn, nextRetryDelaySeconds } from '../../domain/webhook-schedule';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
import type { WebhookStore } from '../../ports/webhooks';

/** A message of the webhook queue: the event, the attempt it is meant to make (1 when absent) and when it is due. */
export type WebhookMessage = { eventId: string; attempt?: number; notBefore?: string };

/** Done (delete the message), or later: send this message (scheduled by its notBefore) and delete the one received. */
export type DeliveryOutcome = 'done' | { later: WebhookMessage };

/** One POST's result: ok (2xx), the HTTP status when one came, and the error otherwise. */
export type PostResult = { ok: boolean; status: number | null; error: string | null };

export type DeliverPorts = {
  webhooks: WebhookStore;
  /** Checks the URL again (DNS rebinding), signs the body and POSTs it. */
  post: (url: string, body: string, eventId: string, secret: string) => Promise<PostResult>;
  /** Sends the next attempt's message to arrive when it is due. */
  schedule: (message: WebhookMessage) => Promise<void>;
  now: () => Date;
  retryScale: number;
};

/** What a message does when its turn is not open: nothing left (closed) or come back later (wait). */
function notNow(message: WebhookMessage, turn: ReturnType<typeof deliveryTurn>, now: Date): DeliveryOutcome {
  if (turn.kind === 'closed') return 'done';
  const seconds = turn.kind === 'wait' ? turn.seconds : 1;
  return { later: { ...message, notBefore: new Date(now.getTime() + seconds * 1000).toISOString() } };
}

/**
 * One attempt of one event's delivery (spec 6.5): the stored body signed and POSTed to the account's
 * URL. The attempt is claimed first (a lease on the delivery record), so a message handed over twice, or
 * early, sends nothing; a stale duplicate (its attempt already recorded) is dropped. A failure sends the
 * next attempt's message BEFORE the attempt is recorded: a crash in between repeats this attempt (at
 * least once), never loses the chain. Up to 8 attempts, then the delivery is failed.
 */
export async function deliverWebhook(ports: DeliverPorts, message: WebhookMessage): Promise<DeliveryOutcome> {
  const { eventId } = message;
  const event = await ports.webhooks.event(eventId);
  if (!event) return 'done';
  const endpoint = await ports.webhooks.endpoint(event.accountId);
  if (!endpoint) return 'done';
  // A type the account did not subscribe to: recorded (the events API lists it), never delivered.
  if (!subscribes(endpoint, event.eventType)) {
    logger.info('webhook not sent: the account does not subscribe to this event type', { eventId, eventType: event.eventType });
    return 'done';
  }
  const previous = await ports.webhooks.delivery(eventId);
  const startedAt = ports.now();
  const previousAttempts = previous?.attempts ?? 0;
  // A duplicate of a message whose attempt is recorded: whoever recorded it scheduled the next one.
  if ((message.attempt ?? 1) <= previousAttempts) return 'done';
  const turn = deliveryTurn(previous, startedAt);
  if (turn.kind !== 'open') return notNow(message, turn, startedAt);
  const until = new Date(startedAt.getTime() + ATTEMPT_LEASE_SECONDS * 1000);
  const claim = await ports.webhooks.claimAttempt(eventId, previousAttempts, startedAt, until);
  if (!claim.claimed) {
    // Another message of this event holds the attempt (a duplicate) or has just made it.
    logger.info('webhook attempt not claimed', { eventId });
    return notNow(message, deliveryTurn(claim.current, startedAt), startedAt);
  }
  const attemptsMade = previousAttempts + 1;
  const sentAt = ports.now();
  const result = await ports.post(endpoint.url, event.body, eventId, endpoint.secret);
  const now = ports.now();
  const durationMs = Math.max(0, now.getTime() - sentAt.getTime());
  const wait = result.ok ? null : nextRetryDelaySeconds(attemptsMade, ports.retryScale);
  const status = result.ok ? 'succeeded' : wait === null ? 'failed' : 'pending';
  const nextAttemptAt = wait === null ? null : new Date(now.getTime() + wait * 1000).toISOString();
  if (nextAttemptAt !== null) await ports.schedule({ eventId, attempt: attemptsMade + 1, notBefore: nextAttemptAt });
  const record: DeliveryAttemptRecord = {
    eventId,
    accountId: event.accountId,
    eventType: event.eventType,
    url: endpoint.url,
    status,
    attempts: attemptsMade,
    nextAttemptAt,
    lastStatus: result.status,
    lastError: result.error,
    updatedAt: now.toISOString(),
    durationMs,
  };
  // Our lease ran out and another attempt took over: its record stands.
  if (!(await ports.webhooks.recordAttempt(record, { until: until.toISOString(), previousAttempts }))) return 'done';
  // Counted once the attempt is recorded (a lease lost to another attempt is that attempt's to count).
  countMetric(BUSINESS_METRICS.webhookAttempts);
  countMetric(result.ok ? BUSINESS_METRICS.webhookSuccesses : BUSINESS_METRICS.webhookFailures);
  if (isSlowAnswer(result.ok, durationMs)) countMetric(BUSINESS_METRICS.webhookSlowAnswers);
  logger.info('webhook attempt', { eventId, attempt: attemptsMade, status, httpStatus: result.status, error: result.error ?? undefined, durationMs });
  return 'done';
}
