import { describe, expect, it } from 'vitest';
import { checkoutItem } from '../../../../shared/checkout/record';
import {
  abandonWrites,
  CardAttemptBusyError,
  cardAnswerLostWrites,
  cardAttemptSettledWrites,
  CheckoutChangedError,
  checkoutPaidWrites,
  CheckoutSettledError,
  claimCardAttemptWrite,
  isPayable,
  orderMoveWrites,
} from '../../../../shared/adapters/dynamo/checkout-settle';
import { CHECKOUT_MOVES, PAYABLE_FROM } from '../../../../shared/domain/checkout-transitions';

const base = checkoutItem({
  reference: 'CHK-ABCDEFGH',
  accountId: 'acct_1',
  txRef: 'order-1',
  merchantName: 'Loja',
  title: 'Camiseta',
  quantity: 1,
  amountCents: 1000,
  totalCents: 1000,
  email: 'a@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  callbackUrl: 'https://shop.example/done',
  methods: ['pix', 'card'],
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
    const [update, event] = checkoutPaidWrites(
      't',
      base,
      { paymentType: 'pix', invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() },
      now,
      () => new CheckoutSettledError(),
    );
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
});

describe('order moves follow the invoice behind the order', () => {
  const paid = { ...base, status: 'PAID', orderStatus: 'PAID', invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() };

  it('refund and cancel of that invoice move the order and write order.refunded / order.canceled', () => {
    for (const [to, event] of [
      ['REFUNDED', 'order.refunded'],
      ['CANCELED', 'order.canceled'],
    ] as const) {
      const writes = orderMoveWrites('t', paid, 'INV-AAAAAA', to, now.toISOString(), now);
      expect(writes).toHaveLength(2);
      expect(writes[0]?.Update?.ConditionExpression).toBe('orderStatus = :from AND invoiceReference = :invoice');
      expect(writes[0]?.onConditionFailed?.()).toBeInstanceOf(CheckoutChangedError);
      expect((writes[1]?.Put?.Item as { eventType: string }).eventType).toBe(event);
    }
  });

  it('another invoice of the same checkout, an unpaid checkout or a second move: no order write', () => {
    expect(orderMoveWrites('t', paid, 'INV-BBBBBB', 'REFUNDED', now.toISOString(), now)).toEqual([]);
    expect(orderMoveWrites('t', base, 'INV-AAAAAA', 'REFUNDED', now.toISOString(), now)).toEqual([]);
    expect(orderMoveWrites('t', { ...paid, orderStatus: 'REFUNDED' }, 'INV-AAAAAA', 'CANCELED', now.toISOString(), now)).toEqual([]);
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

  it('abandons only a PENDING checkout and takes it out of the index', () => {
    const [write] = abandonWrites('t', base, now.toISOString());
    expect(write?.Update?.ConditionExpression).toBe('#status = :pending');
    expect(write?.Update?.UpdateExpression).toContain('REMOVE GSI2PK, GSI2SK');
    expect(write?.Update?.ExpressionAttributeValues).toMatchObject({ ':abandoned': 'ABANDONED' });
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
      checkoutPaidWrites(
        't',
        base,
        { paymentType: 'creditcard', invoiceReference: 'INV-AAAAAA', paidAt: now.toISOString() },
        now,
        () => new CheckoutSettledError(),
      )[0],
      cardAnswerLostWrites('t', base, lost)[0],
      cardAttemptSettledWrites('t', base)[0],
    ];
    for (const update of updates) expect(update?.Update?.UpdateExpression).toMatch(/REMOVE [^=]*cardLease/);
  });
});
