import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookConfigured, WebhookSecretRotated } from '../../domain/changes';
import { ConflictError } from '../../domain/errors';
import type { WebhookStore } from '../../ports/webhooks';
import { sealWebhookSecret, unsealWebhookSecret } from '../../platform/webhook-secret';
import { type Db, isConditionalCheckFailed, itemFromConditionFailure } from './dynamo';
import { keys } from './keys';
import { eventTypesOf, type WebhookDelivery } from '../../domain/webhooks';
import type { TxWrite } from './transact';
import { deliveryOf, dynamoEventReads } from './webhook-reads';
import { redeliveryWrites } from './redelivery';
import type { ChangeCompilers } from './changes';

/** The item type of delivery records (`type` attribute). */
export const DELIVERY_ITEM_TYPE = 'delivery';

export { deliveryOf };

/** The account's webhook URL set; a first configuration seals its new secret, only if none exists yet. */
export function webhookConfiguredWrite(table: string, change: WebhookConfigured, webhookSecretsKey: Buffer): TxWrite {
  const key = keys.account(change.accountId);
  // The subscription list is set, or removed (every type) when the PUT names none.
  const events =
    change.events === undefined
      ? { set: '', remove: ' REMOVE webhookEvents', values: {} }
      : { set: ', webhookEvents = :events', remove: '', values: { ':events': [...change.events] } };
  if (change.newSecret === undefined) {
    return {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `SET webhookUrl = :url, webhookUpdatedAt = :now${events.set}${events.remove}`,
        ExpressionAttributeValues: { ':url': change.url, ':now': change.at, ...events.values },
      },
    };
  }
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: `SET webhookUrl = :url, webhookSecretSealed = :secret, webhookUpdatedAt = :now${events.set}${events.remove}`,
      ConditionExpression: 'attribute_not_exists(webhookSecretSealed)',
      ExpressionAttributeValues: {
        ':url': change.url,
        ':secret': sealWebhookSecret(change.newSecret, change.accountId, webhookSecretsKey),
        ':now': change.at,
        ...events.values,
      },
    },
    onConditionFailed: () => new ConflictError('The webhook was configured by another request at the same time; repeat the request', 'conflict'),
  };
}

/** A new sealed signing secret, only for a configured webhook. */
export function webhookSecretRotatedWrite(table: string, change: WebhookSecretRotated, webhookSecretsKey: Buffer): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.account(change.accountId),
      UpdateExpression: 'SET webhookSecretSealed = :secret, webhookUpdatedAt = :now',
      ConditionExpression: 'attribute_exists(webhookUrl)',
      ExpressionAttributeValues: { ':secret': sealWebhookSecret(change.secret, change.accountId, webhookSecretsKey), ':now': change.at },
    },
    onConditionFailed: () => new ConflictError('No webhook is configured: PUT /api/webhook first', 'webhook_not_configured'),
  };
}

/** The webhook store over the table; `webhookSecretsKey` opens the sealed signing secrets. */
export function dynamoWebhooks(db: Db, table: string, webhookSecretsKey: () => Promise<Buffer>): WebhookStore {
  /** One page of the account's deliveries from GSI1, newest first. */
  const deliveryPage = async (accountId: string, page: { start?: Record<string, unknown>; limit?: number }) => {
    const out = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.deliveryListPartition(accountId) },
        ScanIndexForward: false,
        ...(page.limit !== undefined ? { Limit: page.limit } : {}),
        ...(page.start ? { ExclusiveStartKey: page.start } : {}),
      }),
    );
    return { deliveries: (out.Items ?? []).map(deliveryOf), next: out.LastEvaluatedKey };
  };
  const get = async (key: Record<string, string>, projection?: string) =>
    (await db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true, ...(projection ? { ProjectionExpression: projection } : {}) }))).Item;
  return {
    async settings(accountId) {
      const account = await get(keys.account(accountId), 'webhookUrl, webhookSecretSealed, webhookEvents');
      const events = eventTypesOf(account?.webhookEvents);
      return {
        url: typeof account?.webhookUrl === 'string' ? account.webhookUrl : undefined,
        secretConfigured: typeof account?.webhookSecretSealed === 'string',
        ...(events ? { events } : {}),
      };
    },
    async endpoint(accountId) {
      const account = await get(keys.account(accountId));
      if (!account || typeof account.webhookUrl !== 'string' || typeof account.webhookSecretSealed !== 'string') return undefined;
      const events = eventTypesOf(account.webhookEvents);
      return {
        url: account.webhookUrl,
        secret: unsealWebhookSecret(account.webhookSecretSealed, accountId, await webhookSecretsKey()),
        ...(events ? { events } : {}),
      };
    },
    ...dynamoEventReads(db, table),
    async accountExists(accountId) {
      return (await db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ProjectionExpression: 'PK' }))).Item !== undefined;
    },
    async allDeliveries(accountId) {
      const found: WebhookDelivery[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await deliveryPage(accountId, { start });
        found.push(...page.deliveries);
        start = page.next;
      } while (start);
      return found;
    },
    async deliveries(accountId, limit) {
      return (await deliveryPage(accountId, { limit })).deliveries;
    },
    async claimAttempt(eventId, previousAttempts, now, until) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.delivery(eventId),
            UpdateExpression: 'SET claimUntil = :until, attempts = if_not_exists(attempts, :zero), #status = if_not_exists(#status, :pending)',
            ConditionExpression:
              '(attribute_not_exists(PK) OR (attempts = :previous AND #status = :pending)) AND (attribute_not_exists(claimUntil) OR claimUntil < :now)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':until': until.toISOString(),
              ':zero': 0,
              ':pending': 'pending',
              ':previous': previousAttempts,
              ':now': now.toISOString(),
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { claimed: true };
      } catch (err) {
        if (!isConditionalCheckFailed(err)) throw err;
        const current = itemFromConditionFailure(err);
        return { claimed: false, current: current ? deliveryOf(current) : undefined };
      }
    },
    async recordAttempt(record, claim) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.delivery(record.eventId),
            UpdateExpression:
              'SET #type = :type, accountId = :account, eventId = :event, eventType = :eventType, #url = :url, attempts = :attempts, #status = :status, lastStatus = :lastStatus, lastError = :lastError, lastDurationMs = :ms, attemptLog = list_append(if_not_exists(attemptLog, :noAttempts), :attempt), nextAttemptAt = :next, updatedAt = :now, createdAt = if_not_exists(createdAt, :now), GSI1PK = :gsiPk, GSI1SK = if_not_exists(GSI1SK, :gsiSk) REMOVE claimUntil',
            ConditionExpression: 'claimUntil = :claim AND attempts = :previous AND #status = :pending',
            ExpressionAttributeNames: { '#type': 'type', '#url': 'url', '#status': 'status' },
            ExpressionAttributeValues: {
              ':type': DELIVERY_ITEM_TYPE,
              ':account': record.accountId,
              ':event': record.eventId,
              ':eventType': record.eventType,
              ':url': record.url,
              ':attempts': record.attempts,
              ':status': record.status,
              ':lastStatus': record.lastStatus,
              ':lastError': record.lastError,
              ':ms': record.durationMs,
              ':noAttempts': [],
              ':attempt': [{ at: record.updatedAt, httpStatus: record.lastStatus, error: record.lastError, durationMs: record.durationMs }],
              ':next': record.nextAttemptAt,
              ':now': record.updatedAt,
              ':gsiPk': keys.deliveryListPartition(record.accountId),
              ':gsiSk': `${record.updatedAt}#${record.eventId}`,
              ':claim': claim.until,
              ':previous': claim.previousAttempts,
              ':pending': 'pending',
            },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionalCheckFailed(err)) return false;
        throw err;
      }
    },
  };
}

/** The webhooks room's changes. */
export const webhookCompilers: ChangeCompilers = {
  'webhook.redelivery_requested': (context, change) => redeliveryWrites(context.table, change),
  'webhook.configured': async (context, change) => [webhookConfiguredWrite(context.table, change, (await context.keys()).webhookSecrets)],
  'webhook.secret_rotated': async (context, change) => [webhookSecretRotatedWrite(context.table, change, (await context.keys()).webhookSecrets)],
};
