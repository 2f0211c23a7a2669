import { newEvent } from '../../events/outbox';
import { outboxWrite } from './outbox';
import { ConflictError } from '../../errors';
import type { Item } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';
import { type CheckoutPaymentType, openIndexAttributes, orderEventData, type UnknownCardAttempt } from '../../checkout/record';
import { CHECKOUT_MOVES, type OrderStatus, orderMove, PAYABLE_FROM } from '../../domain/checkout-transitions';

/** The checkout was paid (or abandoned) by another request first: nothing of this one was written. */
export class CheckoutSettledError extends ConflictError {
  constructor() {
    super('This checkout was already paid', 'checkout_already_paid');
  }
}

/** Another card payment of this checkout is running (its lease holds): the payer waits for its answer. */
export class CardAttemptBusyError extends ConflictError {
  constructor() {
    super('Um pagamento com cartão deste pedido já está em andamento. Aguarde alguns segundos e recarregue a página.', 'card_in_progress');
  }
}

/** The checkout changed between its read and the transaction (a concurrent payment or order move): read again. */
export class CheckoutChangedError extends ConflictError {
  constructor() {
    super('The checkout changed while the request ran', 'checkout_changed');
  }
}

export type CheckoutPayment = { paymentType: CheckoutPaymentType; invoiceReference: string; paidAt: string };

/** Whether a checkout in this status may still be paid (the moves table). */
export function isPayable(status: unknown): boolean {
  return PAYABLE_FROM.some((from) => from === status);
}

/**
 * The writes that make a checkout PAID and record its order, for the SAME transaction as the payment's
 * invoice, balance credit and invoice.paid: the checkout's status move (conditional on a status the
 * table lets pay, so a checkout is paid once) and the order.paid event. The checkout leaves the
 * upkeep's index.
 */
export function checkoutPaidWrites(table: string, checkout: Item, payment: CheckoutPayment, now: Date, onConflict: () => Error): TxWrite[] {
  const from = Object.fromEntries(PAYABLE_FROM.map((status, i) => [`:from${i}`, status]));
  const update: TxWrite = {
    Update: {
      TableName: table,
      Key: keys.checkout(String(checkout.reference)),
      UpdateExpression:
        'SET #status = :paid, paymentType = :type, invoiceReference = :invoice, paidAt = :at, orderStatus = :paid REMOVE GSI2PK, GSI2SK, unknownAttempt, cardLease',
      ConditionExpression: `#status IN (${Object.keys(from).join(', ')})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':paid': 'PAID', ':type': payment.paymentType, ':invoice': payment.invoiceReference, ':at': payment.paidAt, ...from },
    },
    onConditionFailed: onConflict,
  };
  const paid = { ...checkout, invoiceReference: payment.invoiceReference };
  return [update, outboxWrite(table, String(checkout.accountId), newEvent('order.paid', orderEventData(paid, 'PAID', payment.paidAt), now))];
}

/**
 * The writes of an order move (order.canceled, order.refunded) when the invoice that paid the checkout
 * is canceled or refunded, for the same transaction as the invoice's move; none when the invoice is
 * not the one behind the order (another payment of the same checkout) or the move is not allowed.
 */
export function orderMoveWrites(table: string, checkout: Item, invoiceReference: string, to: OrderStatus, at: string, now: Date): TxWrite[] {
  if (checkout.status !== 'PAID' || checkout.invoiceReference !== invoiceReference) return [];
  const move = orderMove(checkout.orderStatus as OrderStatus, to);
  if (!move) return [];
  return [
    {
      Update: {
        TableName: table,
        Key: keys.checkout(String(checkout.reference)),
        UpdateExpression: 'SET orderStatus = :to, orderStatusAt = :at',
        ConditionExpression: 'orderStatus = :from AND invoiceReference = :invoice',
        ExpressionAttributeValues: { ':to': move.to, ':from': move.from, ':at': at, ':invoice': invoiceReference },
      },
      onConditionFailed: () => new CheckoutChangedError(),
    },
    outboxWrite(table, String(checkout.accountId), newEvent(move.event, orderEventData(checkout, move.to, String(checkout.paidAt)), now)),
  ];
}

function checkoutUpdate(table: string, checkout: Item, update: string, condition: string, values: Record<string, unknown>): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(String(checkout.reference)),
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
export function cardAnswerLostWrites(table: string, checkout: Item, lost: UnknownCardAttempt): TxWrite[] {
  const index = openIndexAttributes('unknown', String(checkout.createdAt), String(checkout.reference));
  return [
    checkoutUpdate(
      table,
      checkout,
      'SET #status = :unknown, unknownAttempt = :lost, GSI2PK = :pk, GSI2SK = :sk REMOVE cardLease',
      '#status IN (:pending, :unknown) AND cardAttempt = :attempt',
      { ':unknown': 'UNKNOWN', ':pending': 'PENDING', ':lost': lost, ':pk': index.GSI2PK, ':sk': index.GSI2SK, ':attempt': Number(checkout.cardAttempt ?? 0) },
    ),
  ];
}

/**
 * A card attempt was declined (or, asked again, the provider says the lost attempt was not charged):
 * the checkout is PENDING again with the next attempt number (a new idempotency key for the next
 * card), back in the upkeep's open partition.
 */
export function cardAttemptSettledWrites(table: string, checkout: Item, outcome: { declined?: boolean } = {}): TxWrite[] {
  const index = openIndexAttributes('open', String(checkout.createdAt), String(checkout.reference));
  const attempt = Number(checkout.cardAttempt ?? 0);
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
 * The checkout's Pix charge was canceled (provider notification) while the checkout is unpaid: when the
 * checkout offers no card, nothing can pay it any more and it is ABANDONED in the invoice's own
 * transaction (no order event: no order exists before a payment). A checkout that offers the card stays
 * PENDING (the payer may still pay by card, until CHECKOUT_TTL); an UNKNOWN one waits for its card
 * attempt's answer. Conditional on PENDING: a concurrent payment wins, and the notification is applied
 * again against the paid checkout.
 */
export function pixClosedWrites(table: string, checkout: Item, invoiceReference: string, at: string): TxWrite[] {
  if (checkout.status !== 'PENDING' || checkout.pixReference !== invoiceReference) return [];
  const methods: unknown[] = Array.isArray(checkout.methods) ? checkout.methods : [];
  if (methods.includes('card')) return [];
  if (!CHECKOUT_MOVES.some((move) => move.from === 'PENDING' && move.to === 'ABANDONED' && move.trigger === 'no_rail_left')) return [];
  return abandonWrites(table, checkout, at);
}

/** CHECKOUT_TTL passed with no payment: PENDING → ABANDONED (never an UNKNOWN one), out of the upkeep's index. */
export function abandonWrites(table: string, checkout: Item, at: string): TxWrite[] {
  return [
    checkoutUpdate(table, checkout, 'SET #status = :abandoned, abandonedAt = :at REMOVE GSI2PK, GSI2SK, cardLease', '#status = :pending', {
      ':abandoned': 'ABANDONED',
      ':pending': 'PENDING',
      ':at': at,
    }),
  ];
}

/**
 * The abandonment by CHECKOUT_TTL, with the checkout's Pix invoice taken out of the merchant's invoice
 * list (issue 31: a stranger's entry posts would otherwise fill it with PENDING invoices nobody will
 * pay). The invoice stays readable by reference; a Pix paid after all lists it again (its move does).
 */
export function abandonWithInvoiceWrites(table: string, checkout: Item, at: string): TxWrite[] {
  const pixReference = typeof checkout.pixReference === 'string' ? checkout.pixReference : undefined;
  if (!pixReference) return abandonWrites(table, checkout, at);
  return [
    ...abandonWrites(table, checkout, at),
    {
      Update: {
        TableName: table,
        Key: keys.invoice(pixReference),
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
export function claimCardAttemptWrite(table: string, checkout: Item, lease: { id: string; untilMs: number }, nowMs: number): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(String(checkout.reference)),
      UpdateExpression: 'SET cardLease = :lease',
      ConditionExpression: '#status IN (:pending, :unknown) AND cardAttempt = :attempt AND (attribute_not_exists(cardLease) OR cardLease.#until < :now)',
      ExpressionAttributeNames: { '#status': 'status', '#until': 'until' },
      ExpressionAttributeValues: {
        ':lease': { id: lease.id, until: lease.untilMs },
        ':pending': 'PENDING',
        ':unknown': 'UNKNOWN',
        ':attempt': Number(checkout.cardAttempt ?? 0),
        ':now': nowMs,
      },
    },
    onConditionFailed: () => new CardAttemptBusyError(),
  };
}
