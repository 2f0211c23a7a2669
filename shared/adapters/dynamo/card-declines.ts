import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../../clock';
import type { Runtime } from '../../runtime';
import { keys } from './keys';
import type { TxWrite } from './transact';
import { DECLINE_WINDOW_MS, declineLock, withDecline } from '../../cards/declines';

/** Whose declines a card attempt counts against: the card (its fingerprint) and the merchant. */
export type DeclineScope = { fingerprint: string; accountId: string };

/** Why an attempt is refused before the provider is asked, and until when. */
export type DeclineLockState = { locked: false } | { locked: true; by: 'card' | 'merchant'; retryAfterSeconds: number };

export type DeclineLogs = { card: unknown; merchant: unknown };

/** Reads the card's and the merchant's decline logs (two strongly consistent GetItems, at once). */
export async function readDeclineLogs(runtime: Runtime, scope: DeclineScope): Promise<DeclineLogs> {
  const table = runtime.config.tableName;
  const read = async (key: { PK: string; SK: string }) =>
    (await runtime.db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true, ProjectionExpression: '#log', ExpressionAttributeNames: { '#log': 'log' } })))
      .Item?.log;
  const [card, merchant] = await Promise.all([read(keys.cardDeclines(scope.fingerprint)), read(keys.merchantDeclines(scope.accountId))]);
  return { card, merchant };
}

/** Whether the logs lock an attempt now (the card's cap first). */
export function declineLockOf(runtime: Runtime, logs: DeclineLogs, nowMs: number): DeclineLockState {
  const { perCardPerHour, perMerchantPerHour } = runtime.config.cardDeclines;
  const card = declineLock(logs.card, perCardPerHour, nowMs);
  if (card.locked) return { locked: true, by: 'card', retryAfterSeconds: card.retryAfterSeconds };
  const merchant = declineLock(logs.merchant, perMerchantPerHour, nowMs);
  if (merchant.locked) return { locked: true, by: 'merchant', retryAfterSeconds: merchant.retryAfterSeconds };
  return { locked: false };
}

/**
 * The writes that record one decline in both logs, for the transaction that records the declined
 * attempt. Plain Puts of the logs as read: two declines of one card at the same instant may record one
 * (a cap may let a concurrent attempt or two through; it is a brake on card testing, not a ledger).
 * Each log expires (TTL) a window after its last decline.
 */
export function declineWrites(table: string, scope: DeclineScope, logs: DeclineLogs, limits: { perCardPerHour: number; perMerchantPerHour: number }, now: Date): TxWrite[] {
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
