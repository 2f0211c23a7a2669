import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountDue,
  calendarDaysBetween,
  MAX_DAYS_AFTER_DUE,
  MAX_FINE_BASIS_POINTS,
  MAX_INTEREST_BASIS_POINTS_A_MONTH,
} from '../../../shared/domain/late-payment';

/** The rule as the issue writes it, computed independently in decimal (big.js) from percents: fine once, interest pro rata a calendar day. */
function independently(totalCents: number, finePercent: string, interestPercentAMonth: string, days: number): number {
  const total = new Big(totalCents);
  const fine = total.times(finePercent).div(100).round(0, Big.roundHalfUp);
  const interest = total.times(interestPercentAMonth).div(100).div(30).times(days).round(0, Big.roundHalfUp);
  return Number(total.plus(fine).plus(interest).toFixed(0));
}

const percentOf = (basisPoints: number) => new Big(basisPoints).div(100).toString();
const isoDay = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);

describe('the amount due on a date (shared/domain/late-payment.ts)', () => {
  it('one day after the due date with fine 2% and interest 1% a month: total + 2% + 1/30 %, each rounded half up', () => {
    expect(amountDue(10_000, { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 30 }, '2026-12-10', '2026-12-11')).toEqual({
      payable: true,
      daysLate: 1,
      totalCents: 10_000,
      fineCents: 200,
      interestCents: 3, // 10,000 × 1% / 30 = 3.33… → 3
      dueCents: 10_203,
    });
    // 15,000 × 1% / 30 × 1 = 5 exactly; 14,500 → 4.83 → 5; 13,500 → 4.5 → 5 (half up).
    const rules = { fineBasisPoints: 0, interestBasisPointsAMonth: 100, daysAfterDue: 5 };
    expect([15_000, 14_500, 13_500].map((total) => (amountDue(total, rules, '2026-12-10', '2026-12-11') as { interestCents: number }).interestCents)).toEqual([
      5, 5, 5,
    ]);
  });

  it('on or before the due date the total; past the window not payable', () => {
    const rules = { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 3 };
    expect(amountDue(10_000, rules, '2026-12-10', '2026-12-09')).toMatchObject({ payable: true, dueCents: 10_000, daysLate: 0 });
    expect(amountDue(10_000, rules, '2026-12-10', '2026-12-10')).toMatchObject({ payable: true, dueCents: 10_000 });
    expect(amountDue(10_000, rules, '2026-12-10', '2026-12-13')).toMatchObject({ payable: true, daysLate: 3 });
    expect(amountDue(10_000, rules, '2026-12-10', '2026-12-14')).toEqual({ payable: false, daysLate: 4 });
    // Calendar days across a month and a year's end.
    expect(calendarDaysBetween('2026-12-30', '2027-01-02')).toBe(3);
    expect(calendarDaysBetween('2028-02-28', '2028-03-01')).toBe(2);
  });

  it('refuses rules past the caps (2% fine, 1% a month, 60 days) and totals that are not whole cents', () => {
    const ok = { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 60 };
    expect(() => amountDue(100, { ...ok, fineBasisPoints: 201 }, '2026-12-10', '2026-12-11')).toThrow(/fine/);
    expect(() => amountDue(100, { ...ok, interestBasisPointsAMonth: 101 }, '2026-12-10', '2026-12-11')).toThrow(/Interest/);
    expect(() => amountDue(100, { ...ok, daysAfterDue: 61 }, '2026-12-10', '2026-12-11')).toThrow(/days after due/);
    expect(() => amountDue(10.5, ok, '2026-12-10', '2026-12-11')).toThrow(/whole number of cents/);
  });

  it('matches an independent decimal computation over random totals, rules and dates', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999_999_999 }),
        fc.integer({ min: 0, max: MAX_FINE_BASIS_POINTS }),
        fc.integer({ min: 0, max: MAX_INTEREST_BASIS_POINTS_A_MONTH }),
        fc.integer({ min: 0, max: MAX_DAYS_AFTER_DUE }),
        fc.integer({ min: 0, max: 3_650 }),
        fc.integer({ min: -10, max: 70 }),
        (totalCents, fine, interest, daysAfterDue, dueDay, offset) => {
          const due = amountDue(
            totalCents,
            { fineBasisPoints: fine, interestBasisPointsAMonth: interest, daysAfterDue },
            isoDay(dueDay),
            isoDay(dueDay + offset),
          );
          const late = Math.max(0, offset);
          if (late > daysAfterDue) return !due.payable;
          if (!due.payable) return false;
          const expected = late === 0 ? totalCents : independently(totalCents, percentOf(fine), percentOf(interest), late);
          return due.dueCents === expected && due.dueCents === due.totalCents + due.fineCents + due.interestCents;
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
