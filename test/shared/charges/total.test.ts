import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasAtMostTwoDecimals, totalCents } from '../../../shared/charges/total';

/**
 * An independent computation in integer arithmetic (BigInt): amounts in cents, percentages in
 * hundredths; total × 10000 = subtotal × (10000 + tax − discount); rounded half up once at the end.
 */
function expectedCents(amountCents: bigint, quantity: bigint, taxHundredths: bigint, discountHundredths: bigint): bigint {
  const scaled = amountCents * quantity * (10_000n + taxHundredths - discountHundredths);
  const sign = scaled < 0n ? -1n : 1n;
  const magnitude = scaled * sign;
  return sign * ((magnitude + 5_000n) / 10_000n);
}

const centsToNumber = (cents: number) => Number((cents / 100).toFixed(2));

describe('totalCents (spec 1: total computation)', () => {
  it('gives "190.00" for 100 × 2, tax 5, discount 10', () => {
    expect(totalCents({ amount: 100, quantity: 2, tax: 5, discount: 10 })).toBe(19_000n);
  });

  it('handles the whole range: amount 999999999 × quantity 100000, exactly', () => {
    expect(totalCents({ amount: 999_999_999, quantity: 100_000, tax: 0, discount: 0 })).toBe(expectedCents(99_999_999_900n, 100_000n, 0n, 0n));
    expect(totalCents({ amount: 999_999_999.99, quantity: 100_000, tax: 100, discount: 0 })).toBe(expectedCents(99_999_999_999n, 100_000n, 10_000n, 0n));
    expect(totalCents({ amount: 999_999_999.99, quantity: 100_000, tax: 100, discount: 0 })).toBe(19_999_999_999_800_000n);
  });

  it('rounds half up only at the end (0.05 × 1 with 10% tax = 0.055 → 0.06)', () => {
    expect(totalCents({ amount: 0.05, quantity: 1, tax: 10, discount: 0 })).toBe(6n);
    expect(totalCents({ amount: 0.01, quantity: 3, tax: 33.33, discount: 0 })).toBe(4n);
  });

  it('agrees with an independent integer computation over the whole input range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999_900 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (amountCents, quantity, taxHundredths, discountHundredths) => {
          const cents = totalCents({ amount: centsToNumber(amountCents), quantity, tax: taxHundredths / 100, discount: discountHundredths / 100 });
          expect(cents).toBe(expectedCents(BigInt(amountCents), BigInt(quantity), BigInt(taxHundredths), BigInt(discountHundredths)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts money with at most two decimals only', () => {
    for (const ok of [1, 0.1, 0.01, 100.5, 999_999_999.99]) expect(hasAtMostTwoDecimals(ok)).toBe(true);
    for (const bad of [0.001, 1.005, 10.123, Number.NaN, Number.POSITIVE_INFINITY]) expect(hasAtMostTwoDecimals(bad)).toBe(false);
  });
});
