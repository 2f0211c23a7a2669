import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/logger';
import { getSqs } from '../../shared/queue/sqs';
import { getRuntime, type Runtime } from '../../shared/runtime';
import { signatureHeader } from '../../shared/signatures/hmac-header';
import { isConditionalCheckFailed, type Item } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { webhookOf } from '../../shared/webhooks/config';
import { type DeliveryAttempt, postWebhook } from '../../shared/webhooks/deliver';
import { nextRetryDelaySeconds } from '../../shared/webhooks/schedule';
import { checkWebhookUrl } from '../../shared/webhooks/url-policy';

type Outcome = 'done' | { retryInSeconds: number };

/** One attempt: the URL is checked and resolved again (DNS rebinding), then the POST goes to that address. */
async function attempt(runtime: Runtime, url: string, body: string, eventId: string, secret: string): Promise<DeliveryAttempt> {
  const checked = await checkWebhookUrl(url, { resolve: runtime.resolve, allowPrivateHosts: runtime.config.webhooks.allowPrivateHosts });
  if (!checked.ok) return { ok: false, status: null, error: `blocked: ${checked.errors.join('; ')}`.slice(0, 200) };
  const address = checked.addresses[0] ?? '';
  return postWebhook({
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

async function deliver(runtime: Runtime, record: SQSRecord): Promise<Outcome> {
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
  if (previous && previous.status !== 'pending') return 'done';
  const attemptsMade = Number(previous?.attempts ?? 0) + 1;
  const result = await attempt(runtime, webhook.url, String(event.body), eventId, webhook.secret);
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
          'SET #type = :type, accountId = :account, eventId = :event, eventType = :eventType, #url = :url, attempts = :attempts, #status = :status, lastStatus = :lastStatus, lastError = :lastError, nextAttemptAt = :next, updatedAt = :now, createdAt = if_not_exists(createdAt, :now), GSI1PK = :gsiPk, GSI1SK = if_not_exists(GSI1SK, :gsiSk)',
        ConditionExpression: 'attribute_not_exists(PK) OR (attempts = :previous AND #status = :pending)',
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
          ':previous': attemptsMade - 1,
          ':pending': 'pending',
        },
      }),
    );
  } catch (err) {
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
 * up to 8 attempts, then the delivery is marked failed. Messages it cannot process at all are retried
 * by SQS and end in the DLQ (alarmed).
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const runtime = getRuntime();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const outcome = await deliver(runtime, record);
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
}
