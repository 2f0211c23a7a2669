/**
 * THE list of allowed hosted-checkout state moves (spec 2.6, 3 "Hosted checkout"; the spec lists the
 * states and leaves the transitions to us: docs/decisions.md, "Hosted checkout (groundwork)"). A move
 * not listed here is ignored (and logged). A declined card is not a move: the checkout stays PENDING
 * and the payer may try again. PAID is final: cancellations and refunds happen to the invoice behind
 * the order (order.canceled, order.refunded), not to the checkout.
 * `order` is the order event the move writes in the same transaction as the status change.
 */
export type CheckoutStatus = 'PENDING' | 'PAID' | 'ABANDONED' | 'UNKNOWN';
export type CheckoutTrigger =
  /** The provider confirmed the payment: card approved, or a payment notification (Pix). */
  | 'payment_confirmed'
  /** CHECKOUT_TTL has passed since creation with no payment (the scheduled sweep). */
  | 'ttl_expired'
  /** The checkout's Pix charge was canceled by the provider and the checkout offers no card: nothing can pay it any more. */
  | 'no_rail_left'
  /** A payment attempt's answer from the provider was lost (timeout, 5xx): it may or may not have been charged. */
  | 'provider_answer_lost'
  /** The provider answered, when asked again, that the lost attempt was not charged (declined or never received). */
  | 'provider_confirms_not_charged';

export type CheckoutMove = { from: CheckoutStatus; to: CheckoutStatus; trigger: CheckoutTrigger; order: 'order.paid' | null };

export const CHECKOUT_MOVES: readonly CheckoutMove[] = [
  { from: 'PENDING', to: 'PAID', trigger: 'payment_confirmed', order: 'order.paid' },
  { from: 'PENDING', to: 'ABANDONED', trigger: 'ttl_expired', order: null },
  // No order event: an order exists once a checkout is paid (order.canceled follows a paid order only).
  { from: 'PENDING', to: 'ABANDONED', trigger: 'no_rail_left', order: null },
  { from: 'PENDING', to: 'UNKNOWN', trigger: 'provider_answer_lost', order: null },
  { from: 'UNKNOWN', to: 'PAID', trigger: 'payment_confirmed', order: 'order.paid' },
  { from: 'UNKNOWN', to: 'PENDING', trigger: 'provider_confirms_not_charged', order: null },
  { from: 'ABANDONED', to: 'PAID', trigger: 'payment_confirmed', order: 'order.paid' },
];

export const CHECKOUT_STATUSES: readonly CheckoutStatus[] = ['PENDING', 'PAID', 'ABANDONED', 'UNKNOWN'];

/** CHECKOUT_TTL's default: a checkout not paid within 24 hours of its creation is abandoned. */
export const DEFAULT_CHECKOUT_TTL_SECONDS = 24 * 60 * 60;

/** The move from `from` to `to`, or undefined when the table does not allow it. */
export function checkoutMove(from: CheckoutStatus, to: CheckoutStatus): CheckoutMove | undefined {
  return CHECKOUT_MOVES.find((move) => move.from === from && move.to === to);
}

/**
 * Whether the TTL sweep may abandon a checkout created at `createdAtMs` (epoch ms) at `nowMs`: only a
 * PENDING one (an UNKNOWN checkout may have been charged, so it waits for the provider's answer), and
 * only once `ttlSeconds` have fully passed.
 */
export function isAbandonDue(status: CheckoutStatus, createdAtMs: number, nowMs: number, ttlSeconds: number): boolean {
  return status === 'PENDING' && checkoutMove(status, 'ABANDONED') !== undefined && nowMs - createdAtMs >= ttlSeconds * 1000;
}

/** The order a paid checkout records (spec 6.1): it follows the invoice that paid it. */
export type OrderStatus = 'PAID' | 'CANCELED' | 'REFUNDED';
export type OrderMove = { from: OrderStatus; to: OrderStatus; event: 'order.canceled' | 'order.refunded' };

/** THE list of allowed order moves: the invoice behind a paid order was canceled or refunded by the provider. */
export const ORDER_MOVES: readonly OrderMove[] = [
  { from: 'PAID', to: 'CANCELED', event: 'order.canceled' },
  { from: 'PAID', to: 'REFUNDED', event: 'order.refunded' },
];

export function orderMove(from: OrderStatus, to: OrderStatus): OrderMove | undefined {
  return ORDER_MOVES.find((move) => move.from === from && move.to === to);
}

/** The statuses a checkout may be paid from (every move to PAID in the table). */
export const PAYABLE_FROM: readonly CheckoutStatus[] = CHECKOUT_MOVES.filter((move) => move.to === 'PAID').map((move) => move.from);
