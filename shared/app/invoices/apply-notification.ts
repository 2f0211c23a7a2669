import { type Checkout, orderEventData } from '../../domain/checkout';
import { CHECKOUT_MOVES, orderMove, PAYABLE_FROM } from '../../domain/checkout-transitions';
import type { Change, OutboxEvent } from '../../domain/changes';
import { type Invoice, invoiceEventData } from '../../domain/invoice';
import { type InvoiceMove, type InvoiceStatus, invoiceMove } from '../../domain/invoice-transitions';
import { type LedgerTransfer, paymentCredit, paymentReversal } from '../../domain/ledger';
import { CheckoutChangedError } from '../../errors';
import { logger } from '../../logger';
import { BUSINESS_METRICS, countMetric, paymentMethodOf } from '../../metrics/emf';
import type { CheckoutStore } from '../../ports/checkouts';
import type { InvoiceStore } from '../../ports/invoices';

type ChargeKind = 'paid' | 'canceled' | 'refunded';

/** The status each kind of charge notification moves an invoice to. */
export const STATUS_AFTER: Readonly<Record<ChargeKind, InvoiceStatus>> = { paid: 'PAID', canceled: 'CANCELED', refunded: 'REFUNDED' };

/** A provider's confirmed word about a charge: by txid (Pix) or by invoice reference. */
export type ChargeNotification = { id: string; kind: ChargeKind; target: { txid: string } | { reference: string }; occurredAt: Date };

export type InvoiceMovePorts = {
  invoices: Pick<InvoiceStore, 'byReference' | 'byTxid'>;
  checkouts: Pick<CheckoutStore, 'get'>;
  newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent;
  /** Commits a state move's changes in ONE transaction; false when its from-status no longer held (nothing written). */
  commitMove: (changes: readonly Change[]) => Promise<boolean>;
};

/** The ledger side of an invoice move: +total when paid, −total when a paid invoice is refunded or canceled. */
function balanceTransfer(invoice: Invoice, move: InvoiceMove, at: string): LedgerTransfer[] {
  if (move.balance === 0) return [];
  const { reference, method } = invoice;
  const movement = { accountId: invoice.accountId, reference, at };
  if (move.balance > 0) {
    const late = move.paidAfterCancel ? ', after the invoice was canceled' : '';
    return [paymentCredit({ ...movement, description: `Payment of ${reference} (${method})${late}` }, invoice.totalCents, method)];
  }
  const what = move.to === 'REFUNDED' ? 'Refund' : 'Cancellation';
  return [paymentReversal({ ...movement, description: `${what} of ${reference} (${method})` }, invoice.totalCents, method)];
}

/** Whether the moves table lets a checkout with no rail left be abandoned. */
const NO_RAIL_LEFT_ABANDONS = CHECKOUT_MOVES.some((m) => m.from === 'PENDING' && m.to === 'ABANDONED' && m.trigger === 'no_rail_left');

/**
 * What an invoice's move does to the hosted checkout it belongs to, in the same transaction: paying it
 * pays the checkout and records its order (order.paid), unless the checkout was already paid by
 * another payment (the invoice is then paid on its own: the money did arrive, and the merchant refunds
 * it); canceling or refunding the invoice behind an order moves the order (order.canceled,
 * order.refunded); canceling the Pix charge of an unpaid checkout that offers no card abandons the
 * checkout (no order event: no order exists before a payment).
 */
export function checkoutChanges(checkout: Checkout, invoice: Invoice, move: InvoiceMove, at: string, event: InvoiceMovePorts['newEvent'], now: Date): Change[] {
  const { accountId } = checkout;
  if (move.to === 'PAID') {
    if (!PAYABLE_FROM.includes(checkout.status)) {
      logger.warn('checkout already paid: this invoice was paid on its own (a refund is due)', { reference: invoice.reference, checkout: checkout.reference });
      return [];
    }
    const payment = { paymentType: invoice.method === 'pix' ? ('pix' as const) : ('creditcard' as const), invoiceReference: invoice.reference, paidAt: at };
    const paid = { ...checkout, invoiceReference: invoice.reference };
    return [
      { kind: 'checkout.paid', reference: checkout.reference, payment, lostRace: 'read_again' },
      { kind: 'event.recorded', accountId, event: event('order.paid', orderEventData(paid, 'PAID', at), now) },
    ];
  }
  // The checkout's Pix charge closed while unpaid and no card is offered: nothing can pay it any more.
  if (move.to === 'CANCELED' && checkout.status === 'PENDING' && checkout.pixReference === invoice.reference && !checkout.methods.includes('card') && NO_RAIL_LEFT_ABANDONS) {
    return [{ kind: 'checkout.abandoned', reference: checkout.reference, at }];
  }
  if (move.to !== 'CANCELED' && move.to !== 'REFUNDED') return [];
  if (checkout.status !== 'PAID' || checkout.invoiceReference !== invoice.reference || !checkout.orderStatus) return [];
  const order = orderMove(checkout.orderStatus, move.to);
  if (!order) return [];
  return [
    { kind: 'order.moved', checkoutReference: checkout.reference, invoiceReference: invoice.reference, from: order.from, to: order.to, at },
    { kind: 'event.recorded', accountId, event: event(order.event, orderEventData(checkout, order.to, checkout.paidAt ?? at), now) },
  ];
}

/** How often a notification is applied again when the checkout behind its invoice changed under it. */
const CHECKOUT_RACE_ATTEMPTS = 3;

/**
 * Applies one confirmed provider notification in ONE transaction: the invoice's status move
 * (conditional on its current status, from the one table of allowed moves), the balance change, the
 * outbox event, and for an invoice of a hosted checkout the checkout's or order's move with its order
 * event. A payment confirmed for a canceled, never-paid invoice pays it too (credited once, flagged
 * paid_after_cancel). A move the table does not allow, or one already made by a duplicate or
 * concurrent notification, changes nothing. Returns whether this call made the move.
 */
export async function applyNotification(ports: InvoiceMovePorts, notification: ChargeNotification, now: Date, read?: { invoice: Invoice | undefined }): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      // The caller's read of the invoice serves the first attempt only: a race lost reads it again.
      return await applyOnce(ports, notification, now, attempt === 1 ? read : undefined);
    } catch (err) {
      // A card payment (or another notification) moved the checkout between our read and the commit: nothing was written.
      if (err instanceof CheckoutChangedError && attempt < CHECKOUT_RACE_ATTEMPTS) continue;
      throw err;
    }
  }
}

/** The invoice a notification names (by txid or reference), read strongly consistent. */
export function targetInvoice(ports: Pick<InvoiceMovePorts, 'invoices'>, notification: Pick<ChargeNotification, 'target'>): Promise<Invoice | undefined> {
  const { target } = notification;
  return 'txid' in target ? ports.invoices.byTxid(target.txid) : ports.invoices.byReference(target.reference);
}

/** The changes of one invoice move: the conditional status move first, the balance, invoice event, then the checkout's part. */
export async function invoiceMoveChanges(ports: InvoiceMovePorts, invoice: Invoice, move: InvoiceMove, at: string, now: Date): Promise<Change[]> {
  const moved = invoice.paidAfterCancel === true || move.paidAfterCancel ? { ...invoice, paidAfterCancel: true } : invoice;
  const checkout = invoice.checkoutReference ? await ports.checkouts.get(invoice.checkoutReference) : undefined;
  const event = ports.newEvent(move.event, invoiceEventData(moved, move.to), now);
  return [
    { kind: 'invoice.moved', invoice, move, at, eventId: event.id },
    ...balanceTransfer(invoice, move, now.toISOString()),
    { kind: 'event.recorded', accountId: invoice.accountId, event },
    ...(checkout ? checkoutChanges(checkout, invoice, move, at, ports.newEvent, now) : []),
  ];
}

async function applyOnce(ports: InvoiceMovePorts, notification: ChargeNotification, now: Date, read?: { invoice: Invoice | undefined }): Promise<boolean> {
  const invoice = read ? read.invoice : await targetInvoice(ports, notification);
  const context = { notification: notification.id, kind: notification.kind };
  if (!invoice) {
    logger.warn('notification for an unknown charge ignored', context);
    return false;
  }
  const to = STATUS_AFTER[notification.kind];
  const move = invoiceMove(invoice.status, to, invoice.paidAt !== undefined);
  if (!move) {
    logger.warn('notification ignored: move not allowed', { ...context, reference: invoice.reference, from: invoice.status, to });
    return false;
  }
  const changes = await invoiceMoveChanges(ports, invoice, move, notification.occurredAt.toISOString(), now);
  if (!(await ports.commitMove(changes))) {
    logger.info('notification ignored: move already made', { ...context, reference: invoice.reference });
    return false;
  }
  if (move.to === 'PAID') countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: paymentMethodOf(invoice.method) });
  logger.info('invoice moved', { ...context, reference: invoice.reference, from: move.from, to: move.to, paidAfterCancel: move.paidAfterCancel === true });
  return true;
}
