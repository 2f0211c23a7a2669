import { sweepIndexAttributes } from './sweep-index';
import type { OutboxEvent } from '../../domain/changes';
import type { TxWrite } from './transact';
import { EVENT_RETENTION_SECONDS } from '../../domain/events-log';
import { keys } from './keys';

export const OUTBOX_ITEM_TYPE = 'event';

/**
 * The outbox item: the only thing the webhook pipeline reads (stream INSERTs of type `event`). It is
 * also the events API's record (issue 29): listed in GSI1 under the account by creation time, and kept
 * EVENT_RETENTION_SECONDS (30 days) by the table's TTL.
 */
export function outboxWrite(table: string, accountId: string, event: OutboxEvent): TxWrite {
  const createdAt = new Date(event.created * 1000).toISOString();
  return {
    Put: {
      TableName: table,
      // `body` is the exact JSON sent (and signed) at every attempt: DynamoDB maps do not keep key order.
      Item: {
        PK: `EVT#${event.id}`,
        SK: 'EVT',
        type: OUTBOX_ITEM_TYPE,
        accountId,
        eventId: event.id,
        eventType: event.type,
        event,
        body: JSON.stringify(event),
        GSI1PK: keys.eventListPartition(accountId),
        GSI1SK: `${createdAt}#${event.id}`,
        ttl: event.created + EVENT_RETENTION_SECONDS,
        ...sweepIndexAttributes(createdAt, `EVT#${event.id}`),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}
