import type { WebhookRedeliveryRequested } from '../../domain/changes';
import { RedeliveryRefusedError } from '../../domain/errors';
import { sweepIndexAttributes } from './sweep-index';
import { keys } from './keys';
import type { TxWrite } from './transact';

/** The item type of a redelivery request (`type` attribute): the stream forwards its INSERT as attempt 1. */
export const REDELIVERY_ITEM_TYPE = 'redelivery';

/** A redelivery request is kept this long (the delivery record keeps the series; this is only the request). */
const REDELIVERY_KEPT_SECONDS = 30 * 24 * 60 * 60;

/**
 * A redelivery: the delivery reopened for a new series when it is over (only if still as read), and the
 * request item in the event's partition, in the sweep's index, for the stream to forward.
 */
export function redeliveryWrites(table: string, change: WebhookRedeliveryRequested): TxWrite[] {
  const changed = () => new RedeliveryRefusedError('conflict', `The delivery of ${change.eventId} changed meanwhile: try again`, 'delivery_changed');
  const reopen: TxWrite[] = change.reopen
    ? [
        {
          Update: {
            TableName: table,
            Key: keys.delivery(change.eventId),
            UpdateExpression:
              'SET #status = :pending, attempts = :zero, nextAttemptAt = :null, redeliveredAt = :now, updatedAt = :now, series = if_not_exists(series, :one) + :one REMOVE claimUntil',
            ConditionExpression: '#status = :status AND attempts = :attempts',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':pending': 'pending',
              ':zero': 0,
              ':null': null,
              ':now': change.at,
              ':one': 1,
              ':status': change.reopen.status,
              ':attempts': change.reopen.attempts,
            },
          },
          onConditionFailed: changed,
        },
      ]
    : [];
  const pk = keys.event(change.eventId).PK;
  return [
    ...reopen,
    {
      Put: {
        TableName: table,
        Item: {
          PK: pk,
          SK: `REDELIVERY#${change.at}`,
          type: REDELIVERY_ITEM_TYPE,
          accountId: change.accountId,
          eventId: change.eventId,
          requestedAt: change.at,
          ttl: Math.floor(Date.parse(change.at) / 1000) + REDELIVERY_KEPT_SECONDS,
          ...sweepIndexAttributes(change.at, `${pk}#REDELIVERY`),
        },
        // Two requests of one event in the same millisecond: the second is refused (try again).
        ConditionExpression: 'attribute_not_exists(PK)',
      },
      onConditionFailed: changed,
    },
  ];
}
