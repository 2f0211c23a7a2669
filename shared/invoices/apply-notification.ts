import { checkoutByReference } from '../adapters/dynamo/checkout-lookup';
import { CheckoutChangedError, checkoutPaidWrites, isPayable, orderMoveWrites, pixClosedWrites } from '../adapters/dynamo/checkout-settle';
import { newEvent } from '../events/outbox';
import { outboxWrite } from '../adapters/dynamo/outbox';
import { paymentCredit, paymentReversal } from '../domain/ledger';
import { transferWrites } from '../adapters/dynamo/ledger';
import { logger } from '../logger';
import { BUSINESS_METRICS, countMetric, paymentMethodOf } from '../metrics/emf';
import type { ProviderNotification } from '../providers/port';
import type { Runtime } from '../runtime';
import { keys } from '../adapters/dynamo/keys';
import { commitStateMove } from '../adapters/dynamo/state-move';
import type { TxWrite } from '../adapters/dynamo/transact';
import type { Item } from '../adapters/dynamo/dynamo';
import { invoiceByReference, invoiceByTxid } from '../adapters/dynamo/invoice-lookup';
import { inPixSweep } from './pix-sweep-index';
import { invoiceEventData, listedAgain } from './record';
import { type InvoiceMove, type InvoiceStatus, invoiceMove } from '../domain/invoice-transitions';

type ChargeKind = 'paid' | 'canceled' | 'refunded';
/** The status each kind of charge notification moves an invoice to. */
export const STATUS_AFTER: Readonly<Record<ChargeKind, InvoiceStatus>> = { paid: 'PAID', canceled: 'CANCELED', refunded: 'REFUNDED' };
const TIMESTAMP: Readonly<Record<ChargeKind, string>> = { paid: 'paidAt', canceled: 'canceledAt', refunded: 'refundedAt' };

/** The ledger movement of an invoice move: +total when paid, −total when a paid invoice is refunded or canceled. */
function balanceMovement(table: string, item: Item, move: InvoiceMove, now: Date): TxWrite[] {
  if (move.balance === 0) return [];
  const reference = String(item.reference);
  const movement = { accountId: String(item.accountId), reference, at: now.toISOString() };
  const total = Number(item.totalCents);
  if (move.balance > 0) {
    const late = move.paidAfterCancel ? ', after the invoice was canceled' : '';
    return transferWrites(table, paymentCredit({ ...movement, description: `Payment of ${reference} (${String(item.method)})${late}` }, total));
  }
  const what = move.to === 'REFUNDED' ? 'Refund' : 'Cancellation';
  return transferWrites(table, paymentReversal({ ...movement, description: `${what} of ${reference} (${String(item.method)})` }, total));
}

/**
 * The status update of a move, conditional on the from-status: a duplicate or concurrent notification
 * finds it made. A payment confirmed for a canceled invoice also sets the paidAfterCancel flag, on
 * condition that the invoice was never paid (no paidAt), so one invoice is credited at most once.
 */
function statusUpdateOf(table: string, item: Item, move: InvoiceMove, timestamp: string, at: string): TxWrite {
  const late = move.paidAfterCancel === true;
  // A Pix charge awaiting a lookup leaves the Pix sweep's index with its first move.
  // An invoice taken out of the list (an abandoned checkout's Pix) is listed again by any move (a late payment).
  const relist = item.unlisted === true ? listedAgain(item) : undefined;
  const sets = [...(late ? ['#status = :to', '#at = :at', '#flag = :flag'] : ['#status = :to', '#at = :at']), ...(relist ? ['GSI1PK = :lpk', 'GSI1SK = :lsk'] : [])];
  const removes = [...(inPixSweep(item) ? ['GSI2PK', 'GSI2SK'] : []), ...(relist ? ['unlisted'] : [])];
  return {
    Update: {
      TableName: table,
      Key: keys.invoice(String(item.reference)),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: late ? '#status = :from AND attribute_not_exists(#at)' : '#status = :from',
      ExpressionAttributeNames: { '#status': 'status', '#at': timestamp, ...(late ? { '#flag': 'paidAfterCancel' } : {}) },
      ExpressionAttributeValues: {
        ':to': move.to,
        ':from': move.from,
        ':at': at,
        ...(late ? { ':flag': true } : {}),
        ...(relist ? { ':lpk': relist.GSI1PK, ':lsk': relist.GSI1SK } : {}),
      },
    },
  };
}

/** How often a notification is applied again when the checkout behind its invoice changed under it. */
const CHECKOUT_RACE_ATTEMPTS = 3;

/**
 * The checkout writes that ride in the invoice move's transaction when the invoice belongs to a hosted
 * checkout: paying it pays the checkout and records its order (order.paid), unless the checkout was
 * already paid by another payment (the invoice is then paid on its own: the money did arrive, and the
 * merchant refunds it); canceling or refunding the invoice behind an order moves the order
 * (order.canceled, order.refunded); canceling the Pix charge of an unpaid checkout that offers no card
 * abandons the checkout (no order event).
 */
async function checkoutWrites(runtime: Runtime, invoice: Item, move: InvoiceMove, at: string, now: Date): Promise<TxWrite[]> {
  if (typeof invoice.checkoutReference !== 'string') return [];
  const checkout = await checkoutByReference(runtime, invoice.checkoutReference);
  if (!checkout) return [];
  const table = runtime.config.tableName;
  const invoiceReference = String(invoice.reference);
  if (move.to === 'PAID') {
    if (isPayable(checkout.status)) {
      const paymentType = invoice.method === 'pix' ? 'pix' : 'creditcard';
      return checkoutPaidWrites(table, checkout, { paymentType, invoiceReference, paidAt: at }, now, () => new CheckoutChangedError());
    }
    logger.warn('checkout already paid: this invoice was paid on its own (a refund is due)', { reference: invoiceReference, checkout: checkout.reference });
    return [];
  }
  if (move.to === 'CANCELED') {
    const closed = pixClosedWrites(table, checkout, invoiceReference, at);
    if (closed.length > 0) return closed;
  }
  if (move.to === 'CANCELED' || move.to === 'REFUNDED') return orderMoveWrites(table, checkout, invoiceReference, move.to, at, now);
  return [];
}

/**
 * Applies one confirmed provider notification in ONE transaction: the invoice's status move
 * (conditional on its current status, from the one table of allowed moves), the balance change, the
 * outbox event, and for an invoice of a hosted checkout the checkout's or order's move with its order
 * event. A payment confirmed for a canceled, never-paid invoice pays it too (credited once, flagged
 * paid_after_cancel). A move the table does not allow, or one already made by a duplicate or
 * concurrent notification, changes nothing. Returns whether this call made the move.
 */
export async function applyNotification(runtime: Runtime, notification: ProviderNotification & { kind: ChargeKind }, now: Date): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await applyOnce(runtime, notification, now);
    } catch (err) {
      // A card payment (or another notification) moved the checkout between our read and the commit: nothing was written.
      if (err instanceof CheckoutChangedError && attempt < CHECKOUT_RACE_ATTEMPTS) continue;
      throw err;
    }
  }
}

async function applyOnce(runtime: Runtime, notification: ProviderNotification & { kind: ChargeKind }, now: Date): Promise<boolean> {
  const item =
    'txid' in notification.target ? await invoiceByTxid(runtime, notification.target.txid) : await invoiceByReference(runtime, notification.target.reference);
  const context = { notification: notification.id, kind: notification.kind };
  if (!item) {
    logger.warn('notification for an unknown charge ignored', context);
    return false;
  }
  const from = item.status as InvoiceStatus;
  const move = invoiceMove(from, STATUS_AFTER[notification.kind], typeof item.paidAt === 'string');
  if (!move) {
    logger.warn('notification ignored: move not allowed', { ...context, reference: item.reference, from, to: STATUS_AFTER[notification.kind] });
    return false;
  }
  const table = runtime.config.tableName;
  const accountId = String(item.accountId);
  const at = notification.occurredAt.toISOString();
  const statusUpdate = statusUpdateOf(table, item, move, TIMESTAMP[notification.kind], at);
  const moved = item.paidAfterCancel === true || move.paidAfterCancel ? { ...item, paidAfterCancel: true } : item;
  const committed = await commitStateMove(runtime.db, statusUpdate, [
    ...balanceMovement(table, item, move, now),
    outboxWrite(table, accountId, newEvent(move.event, invoiceEventData(moved, move.to), now)),
    ...(await checkoutWrites(runtime, item, move, at, now)),
  ]);
  if (!committed) {
    logger.info('notification ignored: move already made', { ...context, reference: item.reference });
    return false;
  }
  if (move.to === 'PAID') countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: paymentMethodOf(item.method) });
  logger.info('invoice moved', { ...context, reference: item.reference, from: move.from, to: move.to, paidAfterCancel: move.paidAfterCancel === true });
  return true;
}
