import { describe, expect, it } from 'vitest';
import { pixOutcomes } from '../../../shared/domain/pix-outcomes';
import type { PixChargeState, PixPayment } from '../../../shared/ports/payment-provider';

const TXID = 'INVABCDEFabcdefghijklmnopqrstuvw';
const TOTAL = 12345;
const NOW = new Date('2024-05-10T20:00:00.000Z');
const PAID_AT = new Date('2024-05-10T13:00:00.000Z');
const REFUNDED_AT = new Date('2024-05-10T15:00:00.000Z');

function payment(overrides: Partial<PixPayment> = {}): PixPayment {
  return { endToEndId: 'E1', amountCents: TOTAL, paidAt: PAID_AT, refundedCents: 0, ...overrides };
}

function state(status: PixChargeState['status'], payments: PixPayment[]): PixChargeState {
  return { txid: TXID, status, amountCents: TOTAL, payments };
}

describe('pixOutcomes', () => {
  it('credits a payment of exactly the total', () => {
    expect(pixOutcomes(state('COMPLETED', [payment()]), TOTAL, NOW)).toEqual({
      moves: [{ kind: 'paid', occurredAt: PAID_AT, endToEndId: 'E1', amountCents: TOTAL }],
      anomalies: [],
    });
  });

  it('never credits a payment of another amount: an amount_mismatch anomaly and no move', () => {
    for (const amountCents of [TOTAL - 1, TOTAL + 1, 1, TOTAL * 2]) {
      expect(pixOutcomes(state('COMPLETED', [payment({ amountCents })]), TOTAL, NOW), String(amountCents)).toEqual({
        moves: [],
        anomalies: [{ kind: 'amount_mismatch', endToEndId: 'E1', paidCents: amountCents, expectedCents: TOTAL }],
      });
    }
  });

  it('does not cancel a removed charge that was paid with another amount', () => {
    const outcome = pixOutcomes(state('REMOVED', [payment({ amountCents: TOTAL - 1 })]), TOTAL, NOW);
    expect(outcome.moves).toEqual([]);
    expect(outcome.anomalies.map((a) => a.kind)).toEqual(['amount_mismatch']);
  });

  it('pays then refunds a payment returned in full, at the refund time', () => {
    expect(pixOutcomes(state('COMPLETED', [payment({ refundedCents: TOTAL, refundedAt: REFUNDED_AT })]), TOTAL, NOW)).toEqual({
      moves: [
        { kind: 'paid', occurredAt: PAID_AT, endToEndId: 'E1', amountCents: TOTAL },
        { kind: 'refunded', occurredAt: REFUNDED_AT, endToEndId: 'E1' },
      ],
      anomalies: [],
    });
  });

  it('dates a full refund now when the PSP gave no refund time', () => {
    const { moves } = pixOutcomes(state('COMPLETED', [payment({ refundedCents: TOTAL })]), TOTAL, NOW);
    expect(moves).toEqual([
      { kind: 'paid', occurredAt: PAID_AT, endToEndId: 'E1', amountCents: TOTAL },
      { kind: 'refunded', occurredAt: NOW, endToEndId: 'E1' },
    ]);
  });

  it('credits a partially returned payment and alarms on the partial refund', () => {
    expect(pixOutcomes(state('COMPLETED', [payment({ refundedCents: 1000, refundedAt: REFUNDED_AT })]), TOTAL, NOW)).toEqual({
      moves: [{ kind: 'paid', occurredAt: PAID_AT, endToEndId: 'E1', amountCents: TOTAL }],
      anomalies: [{ kind: 'partial_refund', endToEndId: 'E1', refundedCents: 1000, paidCents: TOTAL }],
    });
  });

  it('cancels a charge the PSP removed unpaid', () => {
    expect(pixOutcomes(state('REMOVED', []), TOTAL, NOW)).toEqual({ moves: [{ kind: 'canceled', occurredAt: NOW }], anomalies: [] });
  });

  it('does nothing for an active charge without payments', () => {
    expect(pixOutcomes(state('ACTIVE', []), TOTAL, NOW)).toEqual({ moves: [], anomalies: [] });
    expect(pixOutcomes(state('COMPLETED', []), TOTAL, NOW)).toEqual({ moves: [], anomalies: [] });
  });

  it('credits the first of two exact payments and alarms on the second as extra_payment', () => {
    const second = payment({ endToEndId: 'E2', paidAt: new Date('2024-05-10T14:00:00.000Z') });
    expect(pixOutcomes(state('COMPLETED', [payment(), second]), TOTAL, NOW)).toEqual({
      moves: [{ kind: 'paid', occurredAt: PAID_AT, endToEndId: 'E1', amountCents: TOTAL }],
      anomalies: [{ kind: 'extra_payment', endToEndId: 'E2', paidCents: TOTAL }],
    });
  });

  it('credits the exact payment among others of other amounts', () => {
    const outcome = pixOutcomes(state('COMPLETED', [payment({ endToEndId: 'E0', amountCents: 100 }), payment()]), TOTAL, NOW);
    expect(outcome.moves).toEqual([{ kind: 'paid', occurredAt: PAID_AT, endToEndId: 'E1', amountCents: TOTAL }]);
    expect(outcome.anomalies).toEqual([{ kind: 'amount_mismatch', endToEndId: 'E0', paidCents: 100, expectedCents: TOTAL }]);
  });
});

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('pixOutcomes (property)', () => {
  it('credits a payment only when one equals the total exactly, and then exactly one', () => {
    const seed = 20240510;
    const random = generator(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const statuses = ['ACTIVE', 'COMPLETED', 'REMOVED'] as const;
    let withExact = 0;
    let withoutExact = 0;
    for (let run = 0; run < 2000; run += 1) {
      const total = 1 + Math.floor(random() * 100_000);
      const count = Math.floor(random() * 4);
      const payments: PixPayment[] = [];
      for (let i = 0; i < count; i += 1) {
        const amountCents = pick([total, total - 1, total + 1, 1 + Math.floor(random() * 200_000), total * 2]);
        const refundedCents = pick([0, 0, amountCents, Math.floor(random() * amountCents)]);
        payments.push({ endToEndId: `E${run}-${i}`, amountCents, paidAt: new Date(PAID_AT.getTime() + i * 1000), refundedCents });
      }
      const exact = payments.filter((p) => p.amountCents === total);
      const { moves } = pixOutcomes({ txid: TXID, status: pick(statuses), amountCents: total, payments }, total, NOW);
      const paid = moves.filter((m) => m.kind === 'paid');
      const context = `seed ${seed} run ${run}: total ${total}, payments ${JSON.stringify(payments)}`;
      if (exact.length > 0) {
        withExact += 1;
        expect(paid, context).toHaveLength(1);
        expect(paid[0]?.endToEndId, context).toBe(exact[0]?.endToEndId);
        expect(
          moves.some((m) => m.kind === 'canceled'),
          context,
        ).toBe(false);
      } else {
        withoutExact += 1;
        expect(paid, context).toEqual([]);
        expect(
          moves.some((m) => m.kind === 'refunded'),
          context,
        ).toBe(false);
      }
    }
    // Both branches were exercised often enough to mean something.
    expect(withExact).toBeGreaterThan(200);
    expect(withoutExact).toBeGreaterThan(200);
  });
});
