import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_MOVES,
  CHECKOUT_STATUSES,
  type CheckoutStatus,
  DEFAULT_CHECKOUT_TTL_SECONDS,
  checkoutMove,
  isAbandonDue,
} from '../../../shared/domain/checkout-transitions';

const allowed: ReadonlyArray<[CheckoutStatus, CheckoutStatus]> = [
  ['PENDING', 'PAID'],
  ['PENDING', 'ABANDONED'],
  ['PENDING', 'UNKNOWN'],
  ['UNKNOWN', 'PAID'],
  ['UNKNOWN', 'PENDING'],
  ['ABANDONED', 'PAID'],
];

describe('checkoutMove', () => {
  it('allows exactly the moves of the decision table and refuses the other pairs', () => {
    for (const from of CHECKOUT_STATUSES) {
      for (const to of CHECKOUT_STATUSES) {
        const expected = allowed.some(([f, t]) => f === from && t === to);
        expect(checkoutMove(from, to) !== undefined, `${from} → ${to}`).toBe(expected);
      }
    }
  });

  it('never leaves PAID, and never moves a checkout to itself', () => {
    for (const to of CHECKOUT_STATUSES) expect(checkoutMove('PAID', to)).toBeUndefined();
    for (const status of CHECKOUT_STATUSES) expect(checkoutMove(status, status)).toBeUndefined();
  });

  it('writes order.paid on every move to PAID and on no other move', () => {
    for (const move of CHECKOUT_MOVES) expect(move.order).toBe(move.to === 'PAID' ? 'order.paid' : null);
  });

  it('abandons only on the TTL, marks UNKNOWN only on a lost answer, and returns to PENDING only on the provider saying not charged', () => {
    expect(checkoutMove('PENDING', 'ABANDONED')?.trigger).toBe('ttl_expired');
    expect(checkoutMove('PENDING', 'UNKNOWN')?.trigger).toBe('provider_answer_lost');
    expect(checkoutMove('UNKNOWN', 'PENDING')?.trigger).toBe('provider_confirms_not_charged');
    expect(checkoutMove('ABANDONED', 'PAID')?.trigger).toBe('payment_confirmed');
  });

  it('lists each (from, to, trigger) once, and the moves of one (from, to) pair write the same order event', () => {
    const moves = CHECKOUT_MOVES.map((move) => `${move.from}>${move.to}>${move.trigger}`);
    expect(new Set(moves).size).toBe(moves.length);
    for (const move of CHECKOUT_MOVES) expect(checkoutMove(move.from, move.to)?.order, `${move.from}>${move.to}`).toBe(move.order);
  });

  it('abandons a PENDING checkout at its TTL or when its Pix was canceled and it offers no card, never with an order event', () => {
    const abandons = CHECKOUT_MOVES.filter((move) => move.to === 'ABANDONED');
    expect(abandons.map((move) => `${move.from}:${move.trigger}`).sort()).toEqual(['PENDING:no_rail_left', 'PENDING:ttl_expired']);
    for (const move of abandons) expect(move.order).toBeNull();
  });
});

describe('isAbandonDue', () => {
  const created = Date.UTC(2026, 10, 23, 12);
  const ttl = DEFAULT_CHECKOUT_TTL_SECONDS;

  it('is due for a PENDING checkout from the TTL on, not a millisecond before', () => {
    expect(ttl).toBe(86_400);
    expect(isAbandonDue('PENDING', created, created + ttl * 1000 - 1, ttl)).toBe(false);
    expect(isAbandonDue('PENDING', created, created + ttl * 1000, ttl)).toBe(true);
  });

  it('is never due for UNKNOWN (it may have been charged), PAID or ABANDONED', () => {
    const late = created + 10 * ttl * 1000;
    for (const status of ['UNKNOWN', 'PAID', 'ABANDONED'] as const) expect(isAbandonDue(status, created, late, ttl)).toBe(false);
  });
});
