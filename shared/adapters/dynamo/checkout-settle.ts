import { newEvent } from '../../platform/outbox-event';
import { FIRST_VERSION } from '../../domain/object-version';
import { outboxWrite } from './outbox';
import { CardAttemptBusyError, CheckoutChangedError, CheckoutSettledError } from '../../domain/errors';
import { keys } from './keys';
import type { TxWrite } from './transact';
import { checkoutItem, checkoutTxRefItem, openIndexAttributes } from './checkout-item';
import { type Checkout, type CheckoutPayment, orderEventData, type UnknownCardAttempt } from '../../domain/checkout';
import type { CheckoutAbandoned, CheckoutCreated, CheckoutPaid, OrderMoved } from '../../domain/changes';
import { IdClashError } from '../../domain/errors';
import { PAYABLE_FROM } from '../../domain/checkout-transitions';
import { type ChangeCompilers, mergeCompilers } from './changes';

export type { CheckoutPayment };

/** Whether a checkout in this status may still be paid (the moves table). */
export function isPayable(status: unknown): boolean {
  return PAYABLE_FROM.some((from) => from === status);
}

/**
 * A checkout PAID, in the SAME transaction as the payment's invoice, balance credit and invoice.paid:
 * its status move, conditional on a status the table lets pay (so a checkout is paid once); it leaves
 * the upkeep's index. Its order.paid event is an event of its own in the same changes.
 */
export function checkoutPaidWrite(table: string, change: CheckoutPaid): TxWrite {
  const from = Object.fromEntries(PAYABLE_FROM.map((status, i) => [`:from${i}`, status]));
  const { payment } = change;
  const attempt = change.cardAttempt ?? 'resolved';
  // A card attempt another rail's payment found stays for the upkeep (still in its UNKNOWN partition): only if it is still that one.
  const keep = typeof attempt === 'object';
  const removed = keep ? 'cardLease' : 'GSI2PK, GSI2SK, unknownAttempt, cardLease';
  const held = keep ? ' AND unknownAttempt.providerKey = :key' : attempt === 'none' ? ' AND attribute_not_exists(unknownAttempt)' : '';
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(change.reference),
      UpdateExpression: `SET #status = :paid, paymentType = :type, invoiceReference = :invoice, paidAt = :at, orderStatus = :paid, orderVersion = :first REMOVE ${removed}`,
      ConditionExpression: `#status IN (${Object.keys(from).join(', ')})${held}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':paid': 'PAID',
        ':type': payment.paymentType,
        ':invoice': payment.invoiceReference,
        ':at': payment.paidAt,
        ':first': FIRST_VERSION,
        ...(keep ? { ':key': attempt.keep } : {}),
        ...from,
      },
    },
    onConditionFailed: () => (change.lostRace === 'already_paid' ? new CheckoutSettledError() : new CheckoutChangedError()),
  };
}

/** The writes that make a stored checkout PAID with its order.paid event (the card payment of the checkout page). */
export function checkoutPaidWrites(table: string, checkout: Checkout, payment: CheckoutPayment, now: Date): TxWrite[] {
  const paid = { ...checkout, invoiceReference: payment.invoiceReference };
  return [
    checkoutPaidWrite(table, { kind: 'checkout.paid', reference: paid.reference, payment, lostRace: 'already_paid' }),
    outboxWrite(
      table,
      paid.accountId,
      newEvent('order.paid', orderEventData(paid, 'PAID', payment.paidAt, { version: FIRST_VERSION, previousStatus: null }), now),
    ),
  ];
}

/** An order's move (order.canceled, order.refunded), conditional on its status and on the invoice behind it. */
export function orderMovedWrite(table: string, change: OrderMoved): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(change.checkoutReference),
      UpdateExpression: 'SET orderStatus = :to, orderStatusAt = :at, orderVersion = :version',
      ConditionExpression: 'orderStatus = :from AND invoiceReference = :invoice',
      ExpressionAttributeValues: { ':to': change.to, ':from': change.from, ':at': change.at, ':invoice': change.invoiceReference, ':version': change.version },
    },
    onConditionFailed: () => new CheckoutChangedError(),
  };
}

function checkoutUpdate(table: string, checkout: Checkout, update: string, condition: string, values: Record<string, unknown>): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(checkout.reference),
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
    },
    onConditionFailed: () => new CheckoutChangedError(),
  };
}

/**
 * A card attempt's answer was lost (timeout, provider failure): the checkout becomes UNKNOWN (it may
 * have been charged) and keeps what the upkeep needs to ask the provider about that attempt; it moves
 * to the upkeep's UNKNOWN partition. Conditional on the attempt number, so two attempts never mix.
 */
export function cardAnswerLostWrites(table: string, checkout: Checkout, lost: UnknownCardAttempt): TxWrite[] {
  const index = openIndexAttributes('unknown', checkout.createdAt, checkout.reference);
  return [
    checkoutUpdate(
      table,
      checkout,
      'SET #status = :unknown, unknownAttempt = :lost, GSI2PK = :pk, GSI2SK = :sk REMOVE cardLease',
      '#status IN (:pending, :unknown) AND cardAttempt = :attempt',
      { ':unknown': 'UNKNOWN', ':pending': 'PENDING', ':lost': lost, ':pk': index.GSI2PK, ':sk': index.GSI2SK, ':attempt': checkout.cardAttempt },
    ),
  ];
}

/**
 * A card attempt was declined (or, asked again, the provider says the lost attempt was not charged):
 * the checkout is PENDING again with the next attempt number (a new idempotency key for the next
 * card), back in the upkeep's open partition.
 */
export function cardAttemptSettledWrites(table: string, checkout: Checkout, outcome: { declined?: boolean } = {}): TxWrite[] {
  const index = openIndexAttributes('open', checkout.createdAt, checkout.reference);
  const attempt = checkout.cardAttempt;
  // A decline counts toward the checkout's cap (issue 31); the lease makes the count exact (one attempt at a time).
  const declines = outcome.declined ? ', cardDeclines = if_not_exists(cardDeclines, :zero) + :one' : '';
  return [
    checkoutUpdate(
      table,
      checkout,
      `SET #status = :pending, cardAttempt = :next, GSI2PK = :pk, GSI2SK = :sk${declines} REMOVE unknownAttempt, cardLease`,
      '#status IN (:pending, :unknown) AND cardAttempt = :attempt',
      {
        ':pending': 'PENDING',
        ':unknown': 'UNKNOWN',
        ':next': attempt + 1,
        ':attempt': attempt,
        ':pk': index.GSI2PK,
        ':sk': index.GSI2SK,
        ...(outcome.declined ? { ':zero': 0, ':one': 1 } : {}),
      },
    ),
  ];
}

/**
 * A PENDING checkout ABANDONED (never an UNKNOWN one: it may have been charged), out of the upkeep's
 * index; with CHECKOUT_TTL, its Pix invoice taken out of the merchant's invoice list (issue 31: a
 * stranger's entry posts would otherwise fill it with PENDING invoices nobody will pay). The invoice
 * stays readable by reference; a Pix paid after all lists it again (its move does).
 */
export function checkoutAbandonedWrites(table: string, change: CheckoutAbandoned): TxWrite[] {
  const abandon: TxWrite = {
    Update: {
      TableName: table,
      Key: keys.checkout(change.reference),
      UpdateExpression: 'SET #status = :abandoned, abandonedAt = :at REMOVE GSI2PK, GSI2SK, cardLease',
      // Never with a card attempt in flight (issue 44): the upkeep settles it first.
      ConditionExpression: '#status = :pending AND attribute_not_exists(unknownAttempt)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':abandoned': 'ABANDONED', ':pending': 'PENDING', ':at': change.at },
    },
    onConditionFailed: () => new CheckoutChangedError(),
  };
  if (!change.unlistInvoice) return [abandon];
  return [
    abandon,
    {
      Update: {
        TableName: table,
        Key: keys.invoice(change.unlistInvoice),
        UpdateExpression: 'SET unlisted = :true REMOVE GSI1PK, GSI1SK',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':true': true },
      },
      onConditionFailed: () => new CheckoutChangedError(),
    },
  ];
}

/**
 * Claims the checkout's current card attempt for one request (or the upkeep) before the provider is
 * asked: a lease `{id, until}` (epoch ms) set only when none is running (absent or expired) and the
 * checkout is still payable at that attempt. Concurrent card posts of one checkout would otherwise share
 * the attempt's idempotency key, get the same authorization, and the losers' compensation could void
 * what the winner recorded. The lease outlives the provider's timeout and the function's; the attempt's
 * outcome (paid, declined, lost) removes it.
 */
export function claimCardAttemptWrite(
  table: string,
  checkout: Checkout,
  lease: { id: string; untilMs: number },
  nowMs: number,
  inFlight?: UnknownCardAttempt,
): TxWrite {
  // The card form's attempt recorded before the provider is asked, in the upkeep's UNKNOWN partition (an earlier lost answer of it is kept).
  const index = inFlight ? openIndexAttributes('unknown', checkout.createdAt, checkout.reference) : undefined;
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(checkout.reference),
      UpdateExpression: index
        ? 'SET cardLease = :lease, unknownAttempt = if_not_exists(unknownAttempt, :inFlight), GSI2PK = :pk, GSI2SK = :sk'
        : 'SET cardLease = :lease',
      ConditionExpression: '#status IN (:pending, :unknown) AND cardAttempt = :attempt AND (attribute_not_exists(cardLease) OR cardLease.#until < :now)',
      ExpressionAttributeNames: { '#status': 'status', '#until': 'until' },
      ExpressionAttributeValues: {
        ':lease': { id: lease.id, until: lease.untilMs },
        ':pending': 'PENDING',
        ':unknown': 'UNKNOWN',
        ':attempt': checkout.cardAttempt,
        ':now': nowMs,
        ...(index ? { ':inFlight': inFlight, ':pk': index.GSI2PK, ':sk': index.GSI2SK } : {}),
      },
    },
    onConditionFailed: () => new CardAttemptBusyError(),
  };
}

/** A claim given up before the provider was asked (issue 43: its attempt slot refused): the lease removed while it is still this one (an expired one another took stays). */
export function unclaimCardAttemptWrite(table: string, checkout: Checkout, leaseId: string): TxWrite {
  // The checkout as read before its claim: a PENDING one had no attempt recorded, and goes back to the open partition.
  const index = checkout.status === 'PENDING' && !checkout.unknownAttempt ? openIndexAttributes('open', checkout.createdAt, checkout.reference) : undefined;
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(checkout.reference),
      UpdateExpression: index ? 'SET GSI2PK = :pk, GSI2SK = :sk REMOVE cardLease, unknownAttempt' : 'REMOVE cardLease',
      ConditionExpression: 'cardLease.id = :id',
      ExpressionAttributeValues: { ':id': leaseId, ...(index ? { ':pk': index.GSI2PK, ':sk': index.GSI2SK } : {}) },
    },
    onConditionFailed: () => new CheckoutChangedError(),
  };
}

/** A new checkout and its reservation (the tx_ref's, or one sale's under it), each conditional: a concurrent post wins, this one runs again. */
export function checkoutCreatedWrites(table: string, change: CheckoutCreated): TxWrite[] {
  const { checkout, reservation } = change;
  const key =
    reservation.kind === 'tx_ref'
      ? keys.checkoutTxRef(checkout.accountId, checkout.txRef)
      : keys.checkoutSale(checkout.accountId, checkout.txRef, reservation.sale);
  const clash = () => new IdClashError();
  return [
    { Put: { TableName: table, Item: checkoutItem(checkout), ConditionExpression: 'attribute_not_exists(PK)' }, onConditionFailed: clash },
    {
      Put: {
        TableName: table,
        Item: { ...checkoutTxRefItem(checkout.accountId, checkout.txRef, checkout.reference, checkout.createdAt), ...key },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
      onConditionFailed: clash,
    },
  ];
}

/** A paid checkout's stray card attempt settled (voided or found uncharged): it leaves the checkout and the upkeep's index, if still that one. */
export function cardAttemptClearedWrite(table: string, reference: string, providerKey: string): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(reference),
      UpdateExpression: 'REMOVE unknownAttempt, GSI2PK, GSI2SK',
      ConditionExpression: '#status = :paid AND unknownAttempt.providerKey = :key',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':paid': 'PAID', ':key': providerKey },
    },
    onConditionFailed: () => new CheckoutChangedError(),
  };
}

/** A new checkout (the entry form's own set). */
export const checkoutCreatedCompilers: ChangeCompilers = { 'checkout.created': (context, change) => checkoutCreatedWrites(context.table, change) };

/** The checkout's moves that ride with an invoice's move (paid, its order moved, abandoned). */
export const checkoutMoveCompilers: ChangeCompilers = {
  'checkout.paid': (context, change) => [checkoutPaidWrite(context.table, change)],
  'order.moved': (context, change) => [orderMovedWrite(context.table, change)],
  'checkout.abandoned': (context, change) => checkoutAbandonedWrites(context.table, change),
};

/** The checkout room's changes. */
export const checkoutCompilers: ChangeCompilers = /* @__PURE__ */ mergeCompilers(checkoutMoveCompilers, checkoutCreatedCompilers, {
  'checkout.card_claimed': (context, change) => [claimCardAttemptWrite(context.table, change.checkout, change.lease, change.nowMs, change.inFlight)],
  'checkout.card_attempt_cleared': (context, change) => [cardAttemptClearedWrite(context.table, change.reference, change.providerKey)],
  'checkout.card_unclaimed': (context, change) => [unclaimCardAttemptWrite(context.table, change.checkout, change.leaseId)],
  'checkout.card_lost': (context, change) => cardAnswerLostWrites(context.table, change.checkout, change.lost),
  'checkout.card_reopened': (context, change) => cardAttemptSettledWrites(context.table, change.checkout, { declined: change.declined }),
});
