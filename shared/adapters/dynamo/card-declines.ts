import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../../clock';
import type { DeclineLimits, DeclineLogs, DeclineScope } from '../../domain/card-attempt';
import { DECLINE_WINDOW_MS, withDecline } from '../../domain/card-declines';
import type { CardDeclined } from '../../domain/changes';
import type { DeclineStore } from '../../ports/cards';
import type { ChangeCompilers } from './changes';
import type { Db } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';

/** The decline logs over the table: the card's and the merchant's, two strongly consistent GetItems at once. */
export function dynamoDeclines(db: Db, table: string): DeclineStore {
  return {
    async read(scope) {
      const read = async (key: { PK: string; SK: string }) =>
        (await db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true, ProjectionExpression: '#log', ExpressionAttributeNames: { '#log': 'log' } }))).Item
          ?.log;
      const [card, merchant] = await Promise.all([read(keys.cardDeclines(scope.fingerprint)), read(keys.merchantDeclines(scope.accountId))]);
      return { card, merchant };
    },
  };
}

/**
 * The writes that record one decline in both logs, for the transaction that records the declined
 * attempt. Plain Puts of the logs as read: two declines of one card at the same instant may record one
 * (a cap may let a concurrent attempt or two through; it is a brake on card testing, not a ledger).
 * Each log expires (TTL) a window after its last decline.
 */
export function declineWrites(table: string, scope: DeclineScope, logs: DeclineLogs, limits: DeclineLimits, now: Date): TxWrite[] {
  const nowMs = now.getTime();
  const ttl = unixSeconds(now) + Math.ceil(DECLINE_WINDOW_MS / 1000);
  return [
    { Put: { TableName: table, Item: { ...keys.cardDeclines(scope.fingerprint), type: 'cardDeclines', log: withDecline(logs.card, limits.perCardPerHour, nowMs), ttl } } },
    {
      Put: {
        TableName: table,
        Item: { ...keys.merchantDeclines(scope.accountId), type: 'merchantDeclines', accountId: scope.accountId, log: withDecline(logs.merchant, limits.perMerchantPerHour, nowMs), ttl },
      },
    },
  ];
}

/** The decline logs' changes. */
export const declineCompilers: ChangeCompilers = {
  'card.declined': (context, change: CardDeclined) => declineWrites(context.table, change.scope, change.logs, change.limits, new Date(change.at)),
};
