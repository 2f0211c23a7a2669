import { type Checkout, orderEventData } from '../../domain/checkout';
import { CHECKOUT_MOVES, orderMove, PAYABLE_FROM } from '../../domain/checkout-transitions';
import type { Change, OutboxEvent } from '../../domain/changes';
import { datedBeforeCreation, type Invoice, invoiceEventData, paidAmountCents } from '../../domain/invoice';
import { type BolePixRail, hasRailUpkeep, type PaymentRail, paymentVerdict, railOf } from '../../domain/bolepix';
import { brazilDate } from '../../domain/brazil-dates';
import { FIRST_VERSION, nextVersion } from '../../domain/object-version';
import { type InvoiceMove, type InvoiceStatus, invoiceMove } from '../../domain/invoice-transitions';
import { type LedgerTransfer, paymentCredit, paymentReversal, refundDueHold } from '../../domain/ledger';
import { CheckoutChangedError, PaymentRaceError, UnprocessableError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric, paymentMethodOf } from '../../platform/metrics';
import type { CheckoutStore } from '../../ports/checkouts';
import type { InvoiceStore } from '../../ports/invoices';

type ChargeKind = 'paid' | 'canceled' | 'refunded';

/** The status each kind of charge notification moves an invoice to. */
export const STATUS_AFTER: Readonly<Record<ChargeKind, InvoiceStatus>> = { paid: 'PAID', canceled: 'CANCELED', refunded: 'REFUNDED' };

/**
 * A provider's confirmed word about a charge: by txid (Pix) or by invoice reference. A payment's
 * `amountCents` is what the payer paid when the provider says it (else the amount due on its date).
 */
export type ChargeNotification = { id: string; kind: ChargeKind; target: { txid: string } | { reference: string }; occurredAt: Date; amountCents?: number };

/** A payment credited as the invoice's: the rail it came by and the amount. */
export type InvoicePayment = { rail: PaymentRail; amountCents: number };

export type InvoiceMovePorts = {
  invoices: Pick<InvoiceStore, 'byReference' | 'byTxid'>;
  checkouts: Pick<CheckoutStore, 'get'>;
  newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent;
  /** Commits a state move's changes in ONE transaction; false when its from-status no longer held (nothing written). */
  commitMove: (changes: readonly Change[]) => Promise<boolean>;
  /**
   * After a committed move to PAID or CANCELED of an invoice the rails upkeep keeps (a BolePix): closes
   * its rails left open at once (best effort, never throws: the upkeep's next run does what this did not).
   */
  railsMoved?: (reference: string, now: Date) => Promise<void>;
};

/**
 * The ledger side of an invoice move: + the amount paid (the total, or the amount due that day with
 * late fees) when paid, − what was credited when a paid invoice is refunded or canceled.
 */
function balanceTransfer(invoice: Invoice, move: InvoiceMove, at: string, payment: InvoicePayment | undefined): LedgerTransfer[] {
  if (move.balance === 0) return [];
  const { reference, method } = invoice;
  const movement = { accountId: invoice.accountId, reference, at };
  if (move.balance > 0) {
    const late = move.paidAfterCancel ? ', after the invoice was canceled' : '';
    const rail = payment && payment.rail !== method ? ` by ${payment.rail}` : '';
    const amount = payment?.amountCents ?? invoice.totalCents;
    return [paymentCredit({ ...movement, description: `Payment of ${reference} (${method})${rail}${late}` }, amount, payment?.rail ?? method)];
  }
  const what = move.to === 'REFUNDED' ? 'Refund' : 'Cancellation';
  return [paymentReversal({ ...movement, description: `${what} of ${reference} (${method})` }, paidAmountCents(invoice), invoice.paidRail ?? method)];
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
      // A card attempt the checkout holds (in flight, or its answer lost) stays for the upkeep to void or clear (issue 44).
      {
        kind: 'checkout.paid',
        reference: checkout.reference,
        payment,
        lostRace: 'read_again',
        cardAttempt: checkout.unknownAttempt ? { keep: checkout.unknownAttempt.providerKey } : 'none',
      },
      {
        kind: 'event.recorded',
        accountId,
        event: event('order.paid', orderEventData(paid, 'PAID', at, { version: FIRST_VERSION, previousStatus: null }), now),
      },
    ];
  }
  // The checkout's Pix charge closed while unpaid and no card is offered: nothing can pay it any more.
  if (
    move.to === 'CANCELED' &&
    checkout.status === 'PENDING' &&
    checkout.pixReference === invoice.reference &&
    !checkout.methods.includes('card') &&
    NO_RAIL_LEFT_ABANDONS
  ) {
    return [{ kind: 'checkout.abandoned', reference: checkout.reference, at }];
  }
  if (move.to !== 'CANCELED' && move.to !== 'REFUNDED') return [];
  if (checkout.status !== 'PAID' || checkout.invoiceReference !== invoice.reference || !checkout.orderStatus) return [];
  const order = orderMove(checkout.orderStatus, move.to);
  if (!order) return [];
  const version = nextVersion(checkout.orderVersion);
  return [
    { kind: 'order.moved', checkoutReference: checkout.reference, invoiceReference: invoice.reference, from: order.from, to: order.to, version, at },
    {
      kind: 'event.recorded',
      accountId,
      event: event(order.event, orderEventData(checkout, order.to, checkout.paidAt ?? at, { version, previousStatus: order.from }), now),
    },
  ];
}

/** How often a notification is applied again when the checkout behind its invoice changed under it. */
const CHECKOUT_RACE_ATTEMPTS = 3;

/**
 * How often a payment is applied again, on a fresh read, when another move of its invoice committed
 * between its read and its own commit (issue 43). Each attempt only follows a move that did commit, so
 * a few are enough; past them the notification fails (non-2xx: the provider sends it again).
 */
const PAYMENT_RACE_ATTEMPTS = 5;

/** What one attempt at a notification did: moved the invoice, found nothing to do, or lost the race for its move (nothing written). */
type Attempt = 'applied' | 'ignored' | 'lost_race';

/**
 * Applies one confirmed provider notification in ONE transaction: the invoice's status move
 * (conditional on its current status, from the one table of allowed moves), the balance change, the
 * outbox event, and for an invoice of a hosted checkout the checkout's or order's move with its order
 * event. A payment confirmed for a canceled, never-paid invoice pays it too (credited once, flagged
 * paid_after_cancel). A move the table does not allow, or one already made by a duplicate, changes
 * nothing. A payment whose move loses the race to another move of its invoice (a BolePix paid on both
 * rails at the same instant) reads the invoice again and is recorded as the state it finds asks (a
 * second payment: credited apart as a refund due), never answered as done with nothing recorded; a
 * payment still racing after PAYMENT_RACE_ATTEMPTS throws (the provider retries). Returns whether this
 * call changed the invoice.
 */
export async function applyNotification(
  ports: InvoiceMovePorts,
  notification: ChargeNotification,
  now: Date,
  read?: { invoice: Invoice | undefined },
): Promise<boolean> {
  let checkoutRaces = 0;
  for (let attempt = 1; ; attempt += 1) {
    let outcome: Attempt;
    try {
      // The caller's read of the invoice serves the first attempt only: a race lost reads it again.
      outcome = await applyOnce(ports, notification, now, attempt === 1 ? read : undefined);
    } catch (err) {
      // A card payment (or another notification) moved the checkout between our read and the commit: nothing was written.
      checkoutRaces += 1;
      if (err instanceof CheckoutChangedError && checkoutRaces < CHECKOUT_RACE_ATTEMPTS) continue;
      throw err;
    }
    if (outcome !== 'lost_race') return outcome === 'applied';
    // Only a payment is worth another look: a cancellation or refund that lost found its invoice moved, which is what it asked.
    if (notification.kind !== 'paid') return false;
    if (attempt >= PAYMENT_RACE_ATTEMPTS) throw new PaymentRaceError();
    logger.info('payment lost the race for its invoice: read again', { notification: notification.id, attempt });
  }
}

/** The invoice a notification names (by txid or reference), read strongly consistent. */
export function targetInvoice(ports: Pick<InvoiceMovePorts, 'invoices'>, notification: Pick<ChargeNotification, 'target'>): Promise<Invoice | undefined> {
  const { target } = notification;
  return 'txid' in target ? ports.invoices.byTxid(target.txid) : ports.invoices.byReference(target.reference);
}

/**
 * The changes of one invoice move: the conditional status move first, the balance, invoice event, then
 * the checkout's part. A payment (a move to PAID) records its rail and amount with the move, and its
 * event says them.
 */
export async function invoiceMoveChanges(
  ports: Pick<InvoiceMovePorts, 'checkouts' | 'newEvent'>,
  invoice: Invoice,
  move: InvoiceMove,
  at: string,
  now: Date,
  paid?: InvoicePayment,
): Promise<Change[]> {
  const moved = invoice.paidAfterCancel === true || move.paidAfterCancel ? { ...invoice, paidAfterCancel: true } : invoice;
  const checkout = invoice.checkoutReference ? await ports.checkouts.get(invoice.checkoutReference) : undefined;
  const payment = move.to === 'PAID' ? (paid ?? { rail: invoice.method, amountCents: invoice.totalCents }) : undefined;
  const event = ports.newEvent(
    move.event,
    invoiceEventData(moved, move.to, { version: nextVersion(invoice.version), previousStatus: move.from }, payment),
    now,
  );
  return [
    { kind: 'invoice.moved', invoice, move, at, eventId: event.id, ...(payment ? { payment } : {}) },
    ...balanceTransfer(invoice, move, now.toISOString(), payment),
    { kind: 'event.recorded', accountId: invoice.accountId, event },
    ...(checkout ? checkoutChanges(checkout, invoice, move, at, ports.newEvent, now) : []),
  ];
}

async function applyOnce(ports: InvoiceMovePorts, notification: ChargeNotification, now: Date, read?: { invoice: Invoice | undefined }): Promise<Attempt> {
  const invoice = read ? read.invoice : await targetInvoice(ports, notification);
  const context = { notification: notification.id, kind: notification.kind };
  if (!invoice) {
    logger.warn('notification for an unknown charge ignored', context);
    return 'ignored';
  }
  if (datedBeforeCreation(invoice, notification.occurredAt)) {
    logger.warn('notification refused: dated before its charge was created', { ...context, reference: invoice.reference });
    throw new UnprocessableError('occurred_at is before the charge was created', 'occurred_before_charge');
  }
  let payment: InvoicePayment | undefined;
  if (notification.kind === 'paid') {
    const rail = railOf(notification.target, invoice);
    const verdict = paymentVerdict(invoice, rail, notification.amountCents, brazilDate(notification.occurredAt));
    if (verdict.kind === 'anomaly') {
      logger.error('payment anomaly: not credited', { ...context, reference: invoice.reference, rail, ...verdict });
      countMetric(BUSINESS_METRICS.pixAnomalies);
      return 'ignored';
    }
    if (verdict.kind === 'other_rail_payment') return applyOtherRailPayment(ports, invoice, verdict.rail, verdict.amountCents, notification, now);
    if (verdict.kind === 'invoice_payment') payment = { rail, amountCents: verdict.amountCents };
  }
  const to = STATUS_AFTER[notification.kind];
  const move = invoiceMove(invoice.status, to, invoice.paidAt !== undefined);
  if (!move) {
    logger.warn('notification ignored: move not allowed', { ...context, reference: invoice.reference, from: invoice.status, to });
    return 'ignored';
  }
  const changes = await invoiceMoveChanges(ports, invoice, move, notification.occurredAt.toISOString(), now, payment);
  if (!(await ports.commitMove(changes))) {
    logger.info('move lost: the invoice moved since it was read', { ...context, reference: invoice.reference });
    return 'lost_race';
  }
  if (move.to === 'PAID') countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: paymentMethodOf(invoice.method) });
  if ((move.to === 'PAID' || move.to === 'CANCELED') && hasRailUpkeep(invoice)) await ports.railsMoved?.(invoice.reference, now);
  logger.info('invoice moved', { ...context, reference: invoice.reference, from: move.from, to: move.to, paidAfterCancel: move.paidAfterCancel === true });
  return 'applied';
}

/**
 * A BolePix paid again on its other rail (issue 28): the money arrived, so it is recorded on its own
 * entry, held on the reserved balance until it is refunded (issue 43: never withdrawable), and on the
 * invoice as a refund due (once: a duplicate finds it recorded), never as a
 * second payment of the invoice (no move, no second invoice.paid).
 */
async function applyOtherRailPayment(
  ports: InvoiceMovePorts,
  invoice: Invoice,
  rail: BolePixRail,
  amountCents: number,
  notification: ChargeNotification,
  now: Date,
): Promise<Attempt> {
  const { reference } = invoice;
  const at = notification.occurredAt.toISOString();
  const movement = { accountId: invoice.accountId, reference, at: now.toISOString() };
  const credit = refundDueHold({ ...movement, description: `Second payment of ${reference} by ${rail}: held until refunded to the payer` }, amountCents, rail);
  const committed = await ports.commitMove([{ kind: 'invoice.other_rail_paid', invoice, rail, amountCents, at }, credit]);
  const context = { notification: notification.id, reference, rail, paidRail: invoice.paidRail, amountCents };
  // The invoice changed since it was read (this payment recorded meanwhile, or another move): read again.
  if (!committed) return 'lost_race';
  logger.warn('a paid BolePix was paid again on its other rail: held apart, a refund is due', context);
  return 'applied';
}
