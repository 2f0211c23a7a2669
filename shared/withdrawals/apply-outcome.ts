import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { newEvent, outboxWrite } from '../events/outbox';
import { logger } from '../logger';
import { BUSINESS_METRICS, countMetric } from '../metrics/emf';
import type { ProviderNotification } from '../providers/port';
import type { Runtime } from '../runtime';
import type { Item } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { commitStateMove } from '../adapters/dynamo/state-move';
import type { TxWrite } from '../adapters/dynamo/transact';
import { withdrawalPost, withdrawalVoid } from '../domain/ledger';
import { transferWrites } from '../adapters/dynamo/ledger';
import { withdrawEventData } from './record';
import { type WithdrawStatus, withdrawMove } from '../domain/withdrawal-transitions';

/**
 * The ledger side of a withdrawal's outcome: paid POSTS its held transfer (the reserved amount + fee
 * leaves), refused VOIDS it (back to the available balance). A withdraw reserved before reservations were
 * held (no `heldCents`) had its amount taken outright: paid changes no balance, refused gives it back.
 */
function outcomeTransfer(table: string, item: Item, to: WithdrawStatus, reference: string, at: string): TxWrite[] {
  const movement = { accountId: String(item.accountId), reference, at };
  const amount = Number(item.amountCents);
  const fee = Number(item.feeCents);
  const held = item.heldCents !== undefined;
  if (to === 'PAID') return held ? transferWrites(table, withdrawalPost({ ...movement, description: `Withdrawal ${reference} paid by the bank` }, amount, fee)) : [];
  return transferWrites(table, withdrawalVoid({ ...movement, description: `Refused withdrawal ${reference}: amount and fee returned` }, amount, fee, held));
}

/**
 * The bank's outcome of a withdrawal, in ONE transaction conditional on PENDING: concluded → PAID with
 * its end-to-end id, its transfer posted, and pixout.paid; refused → CANCELED, its transfer voided
 * (amount + fee back to the available balance) and pixout.canceled. A duplicate or late outcome
 * changes nothing (returns false).
 */
export async function applyWithdrawOutcome(runtime: Runtime, notification: ProviderNotification, now: Date): Promise<boolean> {
  const reference = 'reference' in notification.target ? notification.target.reference : '';
  const table = runtime.config.tableName;
  const found = await runtime.db.send(new GetCommand({ TableName: table, Key: keys.withdraw(reference), ConsistentRead: true }));
  const item = found.Item;
  const context = { notification: notification.id, kind: notification.kind, reference };
  if (!item) {
    logger.warn('outcome for an unknown withdraw ignored', context);
    return false;
  }
  const to: WithdrawStatus = notification.kind === 'payout_paid' ? 'PAID' : 'CANCELED';
  const move = withdrawMove(item.status as WithdrawStatus, to);
  if (!move) {
    logger.warn('withdraw outcome ignored: move not allowed', { ...context, from: item.status, to });
    return false;
  }
  const at = notification.occurredAt.toISOString();
  const set =
    move.to === 'PAID'
      ? { expression: 'SET #status = :to, paidAt = :at, endToEndId = :e2e', values: { ':e2e': notification.endToEndId ?? '' } }
      : { expression: 'SET #status = :to, canceledAt = :at', values: {} };
  const accountId = String(item.accountId);
  const statusUpdate: TxWrite = {
    Update: {
      TableName: table,
      Key: keys.withdraw(reference),
      UpdateExpression: set.expression,
      ConditionExpression: '#status = :from',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': move.to, ':from': move.from, ':at': at, ...set.values },
    },
  };
  const moved = await commitStateMove(runtime.db, statusUpdate, [
    ...outcomeTransfer(table, item, move.to, reference, now.toISOString()),
    outboxWrite(table, accountId, newEvent(move.event, withdrawEventData(item, move.to), now)),
  ]);
  if (!moved) {
    logger.info('withdraw outcome ignored: already applied', context);
    return false;
  }
  countMetric(move.to === 'PAID' ? BUSINESS_METRICS.withdrawalsPaid : BUSINESS_METRICS.withdrawalsCanceled);
  logger.info('withdraw moved', { ...context, from: move.from, to: move.to });
  return true;
}
