import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { endInvocation, type InvocationContext, logger, startInvocation, withLogKeys } from '../../shared/logger';
import { BUSINESS_METRICS, countMetric, flushMetrics } from '../../shared/metrics/emf';
import { handleSqsBatch } from '../../shared/queue/batch';
import { isDue, maxHopSecondsFor, sendScheduled } from '../../shared/queue/delayed';
import { getSqs } from '../../shared/queue/sqs';
import { getRuntime, type Runtime } from '../../shared/runtime';
import { signatureHeader } from '../../shared/signatures/hmac-header';
import { isConditionalCheckFailed, type Item, itemFromConditionFailure } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import { webhookOf } from '../../shared/webhooks/config';
import { type DeliveryAttempt, type PostLimits, postWebhook } from '../../shared/webhooks/deliver';
import { ATTEMPT_LEASE_SECONDS, deliveryTurn, nextRetryDelaySeconds } from '../../shared/webhooks/schedule';
import { checkWebhookUrl } from '../../shared/webhooks/url-policy';

/** A message of the webhook queue: the event, the attempt it is meant to make (1 when absent) and when it is due. */
export type WebhookMessage = { eventId: string; attempt?: number; notBefore?: string };

/** Done (delete the message), or later: send this message (scheduled by its notBefore) and delete the one received. */
type Outcome = 'done' | { later: WebhookMessage };

/** Options of the sender; tests shorten the POST's limits (the defaults are the spec's 5 s and 10 s). */
export type SenderOptions = { post?: PostLimits };

/** One attempt: the URL is checked and resolved again (DNS rebinding), then the POST goes to that address. */
async function attempt(runtime: Runtime, url: string, body: string, eventId: string, secret: string, limits: PostLimits): Promise<DeliveryAttempt> {
  const { allowPrivateHosts, dnsTimeoutMs } = runtime.config.webhooks;
  const checked = await checkWebhookUrl(url, { resolve: runtime.resolve, allowPrivateHosts, dnsTimeoutMs });
  if (!checked.ok) return { ok: false, status: null, error: `blocked: ${checked.errors.join('; ')}`.slice(0, 200) };
  const address = checked.addresses[0] ?? '';
  return postWebhook({
    ...limits,
    url: checked.url,
    address,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Service-Webhooks/1.0',
      'Service-Event-Id': eventId,
      'Service-Signature': signatureHeader(body, secret, Math.floor(runtime.clock.now().getTime() / 1000)),
    },
  });
}

/** What a message does when its turn is not open: nothing left (closed) or come back later (wait). */
function notNow(message: WebhookMessage, turn: ReturnType<typeof deliveryTurn>, now: Date): Outcome {
  if (turn.kind === 'closed') return 'done';
  const seconds = turn.kind === 'wait' ? turn.seconds : 1;
  return { later: { ...message, notBefore: new Date(now.getTime() + seconds * 1000).toISOString() } };
}

/**
 * Claims the next attempt: one conditional update that succeeds only if no attempt was recorded since
 * `previous` was read and no other attempt holds the lease (or its lease ran out). Gives the lease's
 * end, or the record that won (so the message knows when to come back).
 */
async function claimAttempt(
  runtime: Runtime,
  eventId: string,
  previousAttempts: number,
  now: Date,
): Promise<{ claimed: true; claimUntil: string } | { claimed: false; current: Item | undefined }> {
  const claimUntil = new Date(now.getTime() + ATTEMPT_LEASE_SECONDS * 1000).toISOString();
  try {
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: keys.delivery(eventId),
        UpdateExpression: 'SET claimUntil = :until, attempts = if_not_exists(attempts, :zero), #status = if_not_exists(#status, :pending)',
        ConditionExpression:
          '(attribute_not_exists(PK) OR (attempts = :previous AND #status = :pending)) AND (attribute_not_exists(claimUntil) OR claimUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':until': claimUntil, ':zero': 0, ':pending': 'pending', ':previous': previousAttempts, ':now': now.toISOString() },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true, claimUntil };
  } catch (err) {
    if (isConditionalCheckFailed(err)) return { claimed: false, current: itemFromConditionFailure(err) };
    throw err;
  }
}

async function deliver(runtime: Runtime, record: SQSRecord, options: SenderOptions): Promise<Outcome> {
  const message = JSON.parse(record.body) as WebhookMessage;
  const { eventId } = message;
  // Early (a wait longer than one SQS delay): the next hop, without reading anything.
  if (!isDue(message, runtime.clock.now())) return { later: message };
  const { db, config } = runtime;
  const table = config.tableName;
  const event = (await db.send(new GetCommand({ TableName: table, Key: keys.event(eventId), ConsistentRead: true }))).Item;
  if (!event) return 'done';
  const accountId = String(event.accountId);
  const account = (await db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ConsistentRead: true }))).Item;
  const webhook = webhookOf(account, (await runtime.serviceKeys()).webhookSecrets);
  if (!webhook) return 'done';
  const previous: Item | undefined = (await db.send(new GetCommand({ TableName: table, Key: keys.delivery(eventId), ConsistentRead: true }))).Item;
  const startedAt = runtime.clock.now();
  const previousAttempts = Number(previous?.attempts ?? 0);
  // A duplicate of a message whose attempt is recorded: whoever recorded it scheduled the next one.
  if ((message.attempt ?? 1) <= previousAttempts) return 'done';
  const turn = deliveryTurn(previous, startedAt);
  if (turn.kind !== 'open') return notNow(message, turn, startedAt);
  const claim = await claimAttempt(runtime, eventId, previousAttempts, startedAt);
  if (!claim.claimed) {
    // Another message of this event holds the attempt (a duplicate) or has just made it.
    logger.info('webhook attempt not claimed', { eventId });
    return notNow(message, deliveryTurn(claim.current, startedAt), startedAt);
  }
  const attemptsMade = previousAttempts + 1;
  const result = await attempt(runtime, webhook.url, String(event.body), eventId, webhook.secret, options.post ?? {});
  const now = runtime.clock.now();
  const wait = result.ok ? null : nextRetryDelaySeconds(attemptsMade, config.webhooks.retryScale);
  const status = result.ok ? 'succeeded' : wait === null ? 'failed' : 'pending';
  const nextAttemptAt = wait === null ? null : new Date(now.getTime() + wait * 1000).toISOString();
  // The next attempt's message leaves before the record: a crash in between repeats this attempt
  // (at least once), never loses the chain.
  if (nextAttemptAt !== null) await schedule(runtime, { eventId, attempt: attemptsMade + 1, notBefore: nextAttemptAt });
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.delivery(eventId),
        UpdateExpression:
          'SET #type = :type, accountId = :account, eventId = :event, eventType = :eventType, #url = :url, attempts = :attempts, #status = :status, lastStatus = :lastStatus, lastError = :lastError, nextAttemptAt = :next, updatedAt = :now, createdAt = if_not_exists(createdAt, :now), GSI1PK = :gsiPk, GSI1SK = if_not_exists(GSI1SK, :gsiSk) REMOVE claimUntil',
        ConditionExpression: 'claimUntil = :claim AND attempts = :previous AND #status = :pending',
        ExpressionAttributeNames: { '#type': 'type', '#url': 'url', '#status': 'status' },
        ExpressionAttributeValues: {
          ':type': 'delivery',
          ':account': accountId,
          ':event': eventId,
          ':eventType': event.eventType,
          ':url': webhook.url,
          ':attempts': attemptsMade,
          ':status': status,
          ':lastStatus': result.status,
          ':lastError': result.error,
          ':next': nextAttemptAt,
          ':now': now.toISOString(),
          ':gsiPk': keys.deliveryListPartition(accountId),
          ':gsiSk': `${now.toISOString()}#${eventId}`,
          ':claim': claim.claimUntil,
          ':previous': previousAttempts,
          ':pending': 'pending',
        },
      }),
    );
  } catch (err) {
    // Our lease ran out and another attempt took over: its record stands.
    if (isConditionalCheckFailed(err)) return 'done';
    throw err;
  }
  // Counted once the attempt is recorded (a lease lost to another attempt is that attempt's to count).
  countMetric(BUSINESS_METRICS.webhookAttempts);
  countMetric(result.ok ? BUSINESS_METRICS.webhookSuccesses : BUSINESS_METRICS.webhookFailures);
  logger.info('webhook attempt', { eventId, attempt: attemptsMade, status, httpStatus: result.status, error: result.error ?? undefined });
  return 'done';
}

/** Sends a message of the webhook queue to arrive when it is due (hops of at most 15 minutes). */
async function schedule(runtime: Runtime, message: WebhookMessage): Promise<void> {
  const queueUrl = runtime.config.webhooks.queueUrl;
  if (!queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not configured: the next attempt cannot be scheduled');
  await sendScheduled(getSqs(), queueUrl, message, runtime.clock.now(), maxHopSecondsFor(runtime.config.webhooks.retryScale));
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
