import { newEvent, outboxWrite } from '../events/outbox';
import { logger } from '../logger';
import type { ProviderNotification } from '../providers/port';
import type { Runtime } from '../runtime';
import { keys } from '../storage/keys';
import { commitStateMove } from '../storage/state-move';
import type { TxWrite } from '../storage/transact';
import { balanceWrite } from './create';
import { invoiceByReference, invoiceByTxid } from './lookup';
import { invoiceEventData } from './record';
import { type InvoiceStatus, invoiceMove } from './transitions';

type ChargeKind = 'paid' | 'canceled' | 'refunded';
const TARGET: Readonly<Record<ChargeKind, InvoiceStatus>> = { paid: 'PAID', canceled: 'CANCELED', refunded: 'REFUNDED' };
const TIMESTAMP: Readonly<Record<ChargeKind, string>> = { paid: 'paidAt', canceled: 'canceledAt', refunded: 'refundedAt' };

/**
 * Applies one confirmed provider notification in ONE transaction: the invoice's status move
 * (conditional on its current status, from the one table of allowed moves), the balance change and
 * the outbox event. A move the table does not allow, or one already made by a duplicate or
 * concurrent notification, changes nothing. Returns whether this call made the move.
 */
export async function applyNotification(runtime: Runtime, notification: ProviderNotification & { kind: ChargeKind }, now: Date): Promise<boolean> {
  const item =
    'txid' in notification.target ? await invoiceByTxid(runtime, notification.target.txid) : await invoiceByReference(runtime, notification.target.reference);
  const context = { notification: notification.id, kind: notification.kind };
  if (!item) {
    logger.warn('notification for an unknown charge ignored', context);
    return false;
  }
  const from = item.status as InvoiceStatus;
  const move = invoiceMove(from, TARGET[notification.kind]);
  if (!move) {
    logger.warn('notification ignored: move not allowed', { ...context, reference: item.reference, from, to: TARGET[notification.kind] });
    return false;
  }
  const table = runtime.config.tableName;
  const accountId = String(item.accountId);
  const statusUpdate: TxWrite = {
    Update: {
      TableName: table,
      Key: keys.invoice(String(item.reference)),
      UpdateExpression: 'SET #status = :to, #at = :at',
      ConditionExpression: '#status = :from',
      ExpressionAttributeNames: { '#status': 'status', '#at': TIMESTAMP[notification.kind] },
      ExpressionAttributeValues: { ':to': move.to, ':from': move.from, ':at': notification.occurredAt.toISOString() },
    },
  };
  const moved = await commitStateMove(runtime.db, statusUpdate, [
    ...(move.balance === 0 ? [] : [balanceWrite(table, accountId, move.balance * Number(item.totalCents))]),
    outboxWrite(table, accountId, newEvent(move.event, invoiceEventData(item, move.to), now)),
  ]);
  if (!moved) {
    logger.info('notification ignored: move already made', { ...context, reference: item.reference });
    return false;
  }
  logger.info('invoice moved', { ...context, reference: item.reference, from: move.from, to: move.to });
  return true;
}
