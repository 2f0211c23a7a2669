import { sweepIndexAttributes } from '../../events/sweep-index';
import type { OutboxEvent } from '../../domain/changes';
import type { TxWrite } from './transact';

export const OUTBOX_ITEM_TYPE = 'event';

/** The outbox item: the only thing the webhook pipeline reads (stream INSERTs of type `event`). */
export function outboxWrite(table: string, accountId: string, event: OutboxEvent): TxWrite {
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
        ...sweepIndexAttributes(new Date(event.created * 1000).toISOString(), `EVT#${event.id}`),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}
