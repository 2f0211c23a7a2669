import { describe, expect, it } from 'vitest';
import { summarizePayments } from '../../../../shared/domain/panel/payments-summary';
import type { LedgerEntry } from '../../../../shared/domain/ledger';

const TODAY_START = Date.parse('2026-11-28T03:00:00.000Z'); // 00:00 in Brasília
const entry = (createdAt: string, cents: number, method?: LedgerEntry['method'], type: LedgerEntry['type'] = 'payment'): LedgerEntry => ({
  id: `txn_${createdAt}`,
  type,
  availableCents: cents,
  reservedCents: 0,
  reference: 'INV-AAAAAA',
  description: 'Payment',
  createdAt,
  ...(method ? { method } : {}),
});

describe("the overview's payments per method (shared/domain/panel/payments-summary.ts)", () => {
  it('sums today’s and the month’s payments per method in integer cents; entries without a method are “other”', () => {
    const entries = [
      entry('2026-11-28T15:00:00.000Z', 1_050, 'pix'),
      entry('2026-11-28T03:00:00.000Z', 2_000, 'creditcard'),
      entry('2026-11-28T02:59:59.999Z', 999, 'pix'), // 23:59:59.999 yesterday in Brasília
      entry('2026-11-02T12:00:00.000Z', 10_001, 'boleto'),
      entry('2026-11-01T04:00:00.000Z', 7, undefined),
    ];
    expect(summarizePayments(entries, TODAY_START)).toEqual({
      today: { pix: { count: 1, cents: 1_050 }, creditcard: { count: 1, cents: 2_000 } },
      month: { pix: { count: 2, cents: 2_049 }, creditcard: { count: 1, cents: 2_000 }, boleto: { count: 1, cents: 10_001 }, other: { count: 1, cents: 7 } },
      monthComplete: true,
      todayComplete: true,
    });
  });

  it('counts only payment entries (a refund in the list is not a payment)', () => {
    expect(summarizePayments([entry('2026-11-28T15:00:00.000Z', -500, 'pix', 'refund')], TODAY_START)).toEqual({
      today: {},
      month: {},
      monthComplete: true,
      todayComplete: true,
    });
  });

  it('says when more were read than counted: the month is partial, today still complete when the last counted is older', () => {
    const entries = [
      entry('2026-11-28T15:00:00.000Z', 100, 'pix'),
      entry('2026-11-20T15:00:00.000Z', 100, 'pix'),
      entry('2026-11-10T15:00:00.000Z', 100, 'pix'),
    ];
    const summary = summarizePayments(entries, TODAY_START, 2);
    expect(summary.month).toEqual({ pix: { count: 2, cents: 200 } });
    expect([summary.monthComplete, summary.todayComplete]).toEqual([false, true]);
    const busy = summarizePayments(
      [entry('2026-11-28T15:00:00.000Z', 100, 'pix'), entry('2026-11-28T14:00:00.000Z', 100, 'pix'), entry('2026-11-28T13:00:00.000Z', 100, 'pix')],
      TODAY_START,
      2,
    );
    expect([busy.monthComplete, busy.todayComplete]).toEqual([false, false]);
    expect(busy.today).toEqual({ pix: { count: 2, cents: 200 } });
  });
});
