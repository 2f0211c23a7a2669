import { describe, expect, it } from 'vitest';
import type { Checkout } from '../../../../shared/domain/checkout';
import {
  cardAnswerLostWrites,
  cardAttemptClearedWrite,
  cardAttemptSettledWrites,
  checkoutAbandonedWrites,
  checkoutPaidWrite,
  checkoutPaidWrites,
  claimCardAttemptWrite,
  isPayable,
  orderMovedWrite,
  unclaimCardAttemptWrite,
} from '../../../../shared/adapters/dynamo/checkout-settle';
import { CardAttemptBusyError, CheckoutChangedError, CheckoutSettledError } from '../../../../shared/domain/errors';
import { CHECKOUT_MOVES, PAYABLE_FROM } from '../../../../shared/domain/checkout-transitions';
import { aCheckout } from '../../../support/records';

const base: Checkout = aCheckout({
  amountCents: 1000,
  totalCents: 1000,
  email: 'a@example.com',
  methods: ['pix', 'card'],
  pixReference: undefined,
  createdAt: '2026-11-23T10:00:00.000Z',
});
const now = new Date('2026-11-23T10:05:00.000Z');

describe('paying a checkout', () => {
  it('may pay from exactly the statuses the moves table leads to PAID from', () => {
    expect([...PAYABLE_FROM].sort()).toEqual(['ABANDONED', 'PENDING', 'UNKNOWN']);
    for (const status of ['PENDING', 'UNKNOWN', 'ABANDONED']) expect(isPayable(status)).toBe(true);
    for (const status of ['PAID', 'CANCELED', undefined]) expect(isPayable(status)).toBe(false);
    expect(CHECKOUT_MOVES.filter((m) => m.to === 'PAID').every((m) => m.order === 'order.paid')).toBe(true);
  });

  it('moves the checkout to PAID on condition of a payable status, records the order and writes order.paid', () => {
    const [update, event] = checkoutPaidWrites('t', base, { paymentType: 'pix', invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() }, now);
    expect(update?.Update?.ConditionExpression).toBe('#status IN (:from0, :from1, :from2)');
    expect(
      Object.entries(update?.Update?.ExpressionAttributeValues ?? {})
        .filter(([k]) => k.startsWith(':from'))
        .map(([, v]) => v)
        .sort(),
    ).toEqual(['ABANDONED', 'PENDING', 'UNKNOWN']);
    expect(update?.Update?.UpdateExpression).toContain('REMOVE GSI2PK, GSI2SK');
    expect(update?.Update?.ExpressionAttributeValues).toMatchObject({ ':paid': 'PAID', ':type': 'pix', ':invoice': 'INV-AAAAAA' });
    expect(update?.onConditionFailed?.()).toBeInstanceOf(CheckoutSettledError);
    const item = event?.Put?.Item as { eventType: string; event: { data: { order: Record<string, unknown> } } };
    expect(item.eventType).toBe('order.paid');
    expect(item.event.data.order).toMatchObject({ reference: 'CHK-ABCDEFGH', status: 'PAID', invoice_reference: 'INV-AAAAAA', total: '10.00' });
  });

  it('a notification that lost the race to another payment reads the checkout again (CheckoutChangedError), a card payment answers 409', () => {
    const payment = { paymentType: 'pix' as const, invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() };
    const change = { kind: 'checkout.paid' as const, reference: 'CHK-ABCDEFGH', payment };
    expect(checkoutPaidWrite('t', { ...change, lostRace: 'read_again' }).onConditionFailed?.()).toBeInstanceOf(CheckoutChangedError);
    expect(checkoutPaidWrite('t', { ...change, lostRace: 'already_paid' }).onConditionFailed?.()).toBeInstanceOf(CheckoutSettledError);
  });
});

describe('an order move', () => {
  it('is conditional on the order status and on the invoice behind the order, and stores the version it makes', () => {
    const at = now.toISOString();
    const write = orderMovedWrite('t', {
      kind: 'order.moved',
      checkoutReference: 'CHK-ABCDEFGH',
      invoiceReference: 'INV-AAAAAA',
      from: 'PAID',
      to: 'REFUNDED',
      version: 2,
      at,
    });
    expect(write.Update?.Key).toEqual({ PK: 'CHK#CHK-ABCDEFGH', SK: 'CHECKOUT' });
    expect(write.Update?.ConditionExpression).toBe('orderStatus = :from AND invoiceReference = :invoice');
    expect(write.Update?.UpdateExpression).toBe('SET orderStatus = :to, orderStatusAt = :at, orderVersion = :version');
    expect(write.Update?.ExpressionAttributeValues).toEqual({ ':to': 'REFUNDED', ':from': 'PAID', ':at': at, ':invoice': 'INV-AAAAAA', ':version': 2 });
    expect(write.onConditionFailed?.()).toBeInstanceOf(CheckoutChangedError);
  });
});

describe('card attempts and abandonment', () => {
  it('a lost answer makes the checkout UNKNOWN on condition of its attempt number, in an UNKNOWN partition', () => {
    const lost = { providerKey: 'k', brand: 'visa', last4: '1111', installments: 1, holder: 'ANA', at: now.toISOString() };
    const [write] = cardAnswerLostWrites('t', { ...base, cardAttempt: 3 }, lost);
    expect(write?.Update?.ConditionExpression).toBe('#status IN (:pending, :unknown) AND cardAttempt = :attempt');
    expect(write?.Update?.ExpressionAttributeValues).toMatchObject({ ':unknown': 'UNKNOWN', ':attempt': 3, ':lost': lost });
    expect(String(write?.Update?.ExpressionAttributeValues?.[':pk'])).toMatch(/^CHKUNK#/);
    expect(JSON.stringify(write)).not.toMatch(/4111111111111111/);
  });

  it('a decline (or a lost attempt found uncharged) reopens the checkout at the next attempt', () => {
    const [write] = cardAttemptSettledWrites('t', { ...base, status: 'UNKNOWN', cardAttempt: 2 });
    expect(write?.Update?.ExpressionAttributeValues).toMatchObject({ ':pending': 'PENDING', ':next': 3, ':attempt': 2 });
    expect(write?.Update?.UpdateExpression).toContain('REMOVE unknownAttempt');
    expect(String(write?.Update?.ExpressionAttributeValues?.[':pk'])).toMatch(/^CHKOPEN#/);
  });

  it('abandons only a PENDING checkout with no card attempt in flight, and takes it out of the index', () => {
    const writes = checkoutAbandonedWrites('t', { kind: 'checkout.abandoned', reference: 'CHK-ABCDEFGH', at: now.toISOString() });
    expect(writes).toHaveLength(1);
    const [write] = writes;
    expect(write?.Update?.ConditionExpression).toBe('#status = :pending AND attribute_not_exists(unknownAttempt)');
    expect(write?.Update?.UpdateExpression).toContain('REMOVE GSI2PK, GSI2SK');
    expect(write?.Update?.ExpressionAttributeValues).toMatchObject({ ':abandoned': 'ABANDONED' });
  });

  it('abandoned by CHECKOUT_TTL, its Pix invoice leaves the merchant list in the same writes', () => {
    const [, unlist] = checkoutAbandonedWrites('t', {
      kind: 'checkout.abandoned',
      reference: 'CHK-ABCDEFGH',
      at: now.toISOString(),
      unlistInvoice: 'INV-AAAAAA',
    });
    expect(unlist?.Update?.Key).toEqual({ PK: 'INV#INV-AAAAAA', SK: 'INVOICE' });
    expect(unlist?.Update?.UpdateExpression).toBe('SET unlisted = :true REMOVE GSI1PK, GSI1SK');
  });
});

describe('one card attempt at a time', () => {
  it('claims the attempt only while payable, at that attempt number, with no live lease; busy → 409 card_in_progress', () => {
    const write = claimCardAttemptWrite('t', { ...base, cardAttempt: 4 }, { id: 'l1', untilMs: 2_000 }, 1_000);
    expect(write.Update?.ConditionExpression).toBe(
      '#status IN (:pending, :unknown) AND cardAttempt = :attempt AND (attribute_not_exists(cardLease) OR cardLease.#until < :now)',
    );
    expect(write.Update?.ExpressionAttributeValues).toMatchObject({ ':lease': { id: 'l1', until: 2_000 }, ':attempt': 4, ':now': 1_000 });
    const busy = write.onConditionFailed?.();
    expect(busy).toBeInstanceOf(CardAttemptBusyError);
    expect((busy as CardAttemptBusyError).kind).toBe('conflict');
  });

  it('every outcome of the attempt releases the lease', () => {
    const lost = { providerKey: 'k', brand: 'visa', last4: '1111', installments: 1, holder: 'A', at: now.toISOString() };
    const updates = [
      checkoutPaidWrites('t', base, { paymentType: 'creditcard', invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() }, now)[0],
      cardAnswerLostWrites('t', base, lost)[0],
      cardAttemptSettledWrites('t', base)[0],
    ];
    for (const update of updates) expect(update?.Update?.UpdateExpression).toMatch(/REMOVE [^=]*cardLease/);
  });
});

describe('a card attempt in flight (issue 44: an invocation killed mid-call)', () => {
  const inFlight = { providerKey: 'k1', brand: 'visa', last4: '1111', installments: 1, holder: 'A', at: now.toISOString() };

  it('the card form records its attempt with the claim, in the upkeep UNKNOWN partition, keeping an earlier lost answer of it', () => {
    const write = claimCardAttemptWrite('t', base, { id: 'l1', untilMs: 2_000 }, 1_000, inFlight);
    expect(write.Update?.UpdateExpression).toBe(
      'SET cardLease = :lease, unknownAttempt = if_not_exists(unknownAttempt, :inFlight), GSI2PK = :pk, GSI2SK = :sk',
    );
    expect(write.Update?.ExpressionAttributeValues).toMatchObject({ ':inFlight': inFlight, ':pk': expect.stringMatching(/^CHKUNK#\d$/) });
    // The upkeep's own claim (it asks about a recorded attempt) records nothing more.
    expect(claimCardAttemptWrite('t', base, { id: 'l1', untilMs: 2_000 }, 1_000).Update?.UpdateExpression).toBe('SET cardLease = :lease');
  });

  it('a claim given up before the provider is asked puts a PENDING checkout back in the open partition, without the attempt', () => {
    const write = unclaimCardAttemptWrite('t', base, 'l1');
    expect(write.Update?.UpdateExpression).toBe('SET GSI2PK = :pk, GSI2SK = :sk REMOVE cardLease, unknownAttempt');
    expect(write.Update?.ExpressionAttributeValues).toMatchObject({ ':id': 'l1', ':pk': expect.stringMatching(/^CHKOPEN#\d$/) });
    // An UNKNOWN checkout keeps its lost answer (and its place in the UNKNOWN partition).
    expect(unclaimCardAttemptWrite('t', { ...base, status: 'UNKNOWN', unknownAttempt: inFlight }, 'l1').Update?.UpdateExpression).toBe('REMOVE cardLease');
  });

  it('paid by another rail: the attempt read is kept for the upkeep (only if still that one), or none is on condition none is there', () => {
    const payment = { paymentType: 'pix' as const, invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() };
    const kept = checkoutPaidWrite('t', { kind: 'checkout.paid', reference: 'CHK-ABCDEFGH', payment, lostRace: 'read_again', cardAttempt: { keep: 'k1' } });
    expect(kept.Update?.UpdateExpression).toMatch(/REMOVE cardLease$/);
    expect(kept.Update?.ConditionExpression).toContain('AND unknownAttempt.providerKey = :key');
    expect(kept.Update?.ExpressionAttributeValues).toMatchObject({ ':key': 'k1' });
    const none = checkoutPaidWrite('t', { kind: 'checkout.paid', reference: 'CHK-ABCDEFGH', payment, lostRace: 'read_again', cardAttempt: 'none' });
    expect(none.Update?.UpdateExpression).toMatch(/REMOVE GSI2PK, GSI2SK, unknownAttempt, cardLease$/);
    expect(none.Update?.ConditionExpression).toContain('AND attribute_not_exists(unknownAttempt)');
    expect(none.onConditionFailed?.()).toBeInstanceOf(CheckoutChangedError);
  });

  it('a paid checkout stray attempt leaves it and the index, only while it is still that attempt', () => {
    const write = cardAttemptClearedWrite('t', 'CHK-ABCDEFGH', 'k1');
    expect(write.Update).toMatchObject({
      UpdateExpression: 'REMOVE unknownAttempt, GSI2PK, GSI2SK',
      ConditionExpression: '#status = :paid AND unknownAttempt.providerKey = :key',
      ExpressionAttributeValues: { ':paid': 'PAID', ':key': 'k1' },
    });
  });
});
