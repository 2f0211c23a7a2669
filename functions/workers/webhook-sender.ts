import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/logger';
import { getSqs } from '../../shared/queue/sqs';
import { getRuntime, type Runtime } from '../../shared/runtime';
import { signatureHeader } from '../../shared/signatures/hmac-header';
import { isConditionalCheckFailed, type Item, itemFromConditionFailure } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { webhookOf } from '../../shared/webhooks/config';
import { type DeliveryAttempt, type PostLimits, postWebhook } from '../../shared/webhooks/deliver';
import { ATTEMPT_LEASE_SECONDS, deliveryTurn, nextRetryDelaySeconds } from '../../shared/webhooks/schedule';
import { checkWebhookUrl } from '../../shared/webhooks/url-policy';

type Outcome = 'done' | { retryInSeconds: number };

/** Options of the sender; tests shorten the POST's limits (the defaults are the spec's 5 s and 10 s). */
export type SenderOptions = { post?: PostLimits };

/** One attempt: the URL is checked and resolved again (DNS rebinding), then the POST goes to that address. */
async function attempt(runtime: Runtime, url: string, body: string, eventId: string, secret: string, limits: PostLimits): Promise<DeliveryAttempt> {
  const checked = await checkWebhookUrl(url, { resolve: runtime.resolve, allowPrivateHosts: runtime.config.webhooks.allowPrivateHosts });
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
function notNow(turn: ReturnType<typeof deliveryTurn>): Outcome {
  return turn.kind === 'wait' ? { retryInSeconds: turn.seconds } : turn.kind === 'closed' ? 'done' : { retryInSeconds: 1 };
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
  const { eventId } = JSON.parse(record.body) as { eventId: string };
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
  const turn = deliveryTurn(previous, startedAt);
  if (turn.kind !== 'open') return notNow(turn);
  const previousAttempts = Number(previous?.attempts ?? 0);
  const claim = await claimAttempt(runtime, eventId, previousAttempts, startedAt);
  if (!claim.claimed) {
    // Another message of this event holds the attempt (a duplicate) or has just made it.
    logger.info('webhook attempt not claimed', { eventId });
    return notNow(deliveryTurn(claim.current, startedAt));
  }
  const attemptsMade = previousAttempts + 1;
  const result = await attempt(runtime, webhook.url, String(event.body), eventId, webhook.secret, options.post ?? {});
  const now = runtime.clock.now();
  const wait = result.ok ? null : nextRetryDelaySeconds(attemptsMade, config.webhooks.retryScale);
  const status = result.ok ? 'succeeded' : wait === null ? 'failed' : 'pending';
  const nextAttemptAt = wait === null ? null : new Date(now.getTime() + wait * 1000).toISOString();
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
  logger.info('webhook attempt', { eventId, attempt: attemptsMade, status, httpStatus: result.status, error: result.error ?? undefined });
  return wait === null ? 'done' : { retryInSeconds: wait };
}

/**
 * The webhook queue's consumer. Each message is one event: the sender signs the event's stored body
 * and POSTs it; a failure schedules the next attempt by hiding the message for the wait of the
 * schedule (1, 5, 15, 60, 180, 360, 720 minutes, × WEBHOOK_RETRY_SCALE) with ChangeMessageVisibility,
 * up to 8 attempts, then the delivery is marked failed. Each attempt is claimed first (a conditional
 * update of the delivery record setting a lease, `claimUntil`), so a message handed over twice, or
 * early, sends nothing and comes back later; a sender that dies mid-attempt leaves a lease that runs
 * out, and the message's next receipt attempts again (at least once). Messages it cannot process at
 * all are retried by SQS and end in the DLQ (alarmed).
 */
export function webhookSender(options: SenderOptions = {}) {
  return async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
    const runtime = getRuntime();
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const outcome = await deliver(runtime, record, options);
        if (outcome === 'done') continue;
        failures.push({ itemIdentifier: record.messageId });
        if (runtime.config.webhooks.queueUrl) {
          await getSqs().send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: runtime.config.webhooks.queueUrl,
              ReceiptHandle: record.receiptHandle,
              VisibilityTimeout: outcome.retryInSeconds,
            }),
          );
        }
      } catch (err) {
        logger.error('webhook message not processed', { messageId: record.messageId, error: err instanceof Error ? err.message : 'unknown' });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}

export const handler = webhookSender();
