import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { SWEEP_INDEX, sweepPartitions } from './sweep-index';
import { logger } from '../../platform/logger';
import type { Forwardable, ForwardIndex } from '../../ports/forwarding';
import type { Db, Item } from './dynamo';
import { OUTBOX_ITEM_TYPE } from './outbox';
import { REDELIVERY_ITEM_TYPE } from './redelivery';
import { MAIL_ITEM_TYPE } from './mail-outbox';
import { WITHDRAW_ITEM_TYPE } from './withdrawals';

/** The message of a new withdraw (to the payout queue), an outbox event or a redelivery request (to the webhook queue), a queued mail (to the mail queue); undefined for anything else. */
export function forwardableOf(item: Item | undefined): Forwardable | undefined {
  if (!item || typeof item.PK !== 'string' || typeof item.SK !== 'string') return undefined;
  if (item.type === WITHDRAW_ITEM_TYPE && typeof item.reference === 'string')
    return { PK: item.PK, SK: item.SK, queue: 'payouts', message: { reference: item.reference } };
  if (item.type === OUTBOX_ITEM_TYPE && typeof item.eventId === 'string')
    return { PK: item.PK, SK: item.SK, queue: 'webhooks', message: { eventId: item.eventId } };
  if (item.type === MAIL_ITEM_TYPE && typeof item.mailId === 'string') return { PK: item.PK, SK: item.SK, queue: 'mail', message: { mailId: item.mailId } };
  // A redelivery's new series starts at attempt 1, not before it was asked for.
  if (item.type === REDELIVERY_ITEM_TYPE && typeof item.eventId === 'string' && typeof item.requestedAt === 'string')
    return { PK: item.PK, SK: item.SK, queue: 'webhooks', message: { eventId: item.eventId, attempt: 1, notBefore: item.requestedAt } };
  return undefined;
}

/** What a table stream record brings to forward: only an INSERT of a withdraw, an outbox event, a redelivery request or a queued mail. */
export function forwardableRecord(record: DynamoDBRecord): Forwardable | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  return forwardableOf(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>));
}

/** The sweep's index (GSI2, SWEEP# partitions) over the table. */
export function dynamoForwardIndex(db: Db, table: string): ForwardIndex {
  return {
    async unforwarded(fromIso, toIso, maxItems) {
      const found: Forwardable[] = [];
      for (const partition of sweepPartitions) {
        let start: Record<string, unknown> | undefined;
        do {
          const page = await db.send(
            new QueryCommand({
              TableName: table,
              IndexName: SWEEP_INDEX,
              KeyConditionExpression: 'GSI2PK = :p AND GSI2SK BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':p': partition, ':from': fromIso, ':to': `${toIso}~` },
              ExclusiveStartKey: start,
            }),
          );
          for (const item of page.Items ?? []) {
            const forwardable = forwardableOf(item);
            if (forwardable) found.push(forwardable);
          }
          start = page.LastEvaluatedKey;
        } while (start && found.length < maxItems);
      }
      return found.slice(0, maxItems);
    },
    async leave(item) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
            ConditionExpression: 'attribute_exists(PK)',
          }),
        );
      } catch (err) {
        // Still indexed: the sweep will forward it once more (harmless).
        logger.warn('forwarded item left in the sweep index', { key: item.PK, error: err instanceof Error ? err.message : 'unknown' });
      }
    },
  };
}
