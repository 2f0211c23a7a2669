import { randomString } from '../ids';
import { API_VERSION } from '../domain/api-version';
import type { TxWrite } from '../adapters/dynamo/transact';
import { sweepIndexAttributes } from './sweep-index';
import type { OutboxEvent } from '../domain/changes';

/** An outgoing webhook event (spec 6.2): written in the same transaction as the change it reports. */
export type { OutboxEvent };

export function newEvent(type: string, data: Record<string, unknown>, now: Date): OutboxEvent {
  return { id: `evt_${randomString(24)}`, type, created: Math.floor(now.getTime() / 1000), api_version: API_VERSION, data };
}

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
