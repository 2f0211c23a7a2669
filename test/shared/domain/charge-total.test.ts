import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalPlaces, hasAtMostDecimals, hasAtMostTwoDecimals, TOTAL_ROUNDING_RULE, totalCents } from '../../../shared/domain/charge-total';

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

/** The same with percents in ten-thousandths (4 decimals): total × 1,000,000 = subtotal cents × (1,000,000 + tax − discount). */
function expectedCents4(amountCents: bigint, quantity: bigint, taxUnits: bigint, discountUnits: bigint): bigint {
  const scaled = amountCents * quantity * (1_000_000n + taxUnits - discountUnits);
  return (scaled + 500_000n) / 1_000_000n;
}

describe('totalCents (spec 1: total computation)', () => {
  it('gives "190.00" for 100 × 2, tax 5, discount 10', () => {
    expect(totalCents({ amountCents: 10_000, quantity: 2, tax: 5, discount: 10 })).toBe(19_000n);
  });

  it('handles the whole range: amount 999999999 × quantity 100000, exactly', () => {
    expect(totalCents({ amountCents: 99_999_999_900, quantity: 100_000, tax: 0, discount: 0 })).toBe(expectedCents(99_999_999_900n, 100_000n, 0n, 0n));
    expect(totalCents({ amountCents: 99_999_999_999, quantity: 100_000, tax: 100, discount: 0 })).toBe(expectedCents(99_999_999_999n, 100_000n, 10_000n, 0n));
    expect(totalCents({ amountCents: 99_999_999_999, quantity: 100_000, tax: 100, discount: 0 })).toBe(19_999_999_999_800_000n);
  });

  it('rounds half up only at the end (0.05 × 1 with 10% tax = 0.055 → 0.06)', () => {
    expect(totalCents({ amountCents: 5, quantity: 1, tax: 10, discount: 0 })).toBe(6n);
    expect(totalCents({ amountCents: 1, quantity: 3, tax: 33.33, discount: 0 })).toBe(4n);
  });

  it('agrees with an independent integer computation over the whole input range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999_900 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (amountCents, quantity, taxHundredths, discountHundredths) => {
          const cents = totalCents({ amountCents, quantity, tax: taxHundredths / 100, discount: discountHundredths / 100 });
          expect(cents).toBe(expectedCents(BigInt(amountCents), BigInt(quantity), BigInt(taxHundredths), BigInt(discountHundredths)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('computes exactly with percents of 4 decimals: 200 × (1 + 0.0025%) = 200.005, half a cent, up → 200.01 (floating point answers 200.00)', () => {
    expect((200 * (1 + 0.0025 / 100)).toFixed(2)).toBe('200.00');
    expect(totalCents({ amountCents: 20_000, quantity: 1, tax: 0.0025, discount: 0 })).toBe(20_001n);
    // 33.33 × 3 = 99.99; × (100 + 3.3335 − 1.2345)% = 102.08890… → 102.09
    expect(totalCents({ amountCents: 3333, quantity: 3, tax: 3.3335, discount: 1.2345 })).toBe(10_209n);
    // 0.01 × 1 × (100 − 99.9999)% = 0.000001 → 0.00 (half-up, not up)
    expect(totalCents({ amountCents: 1, quantity: 1, tax: 0, discount: 99.9999 })).toBe(0n);
    // The largest total: 999999999.99 × 100000 × 2 exactly, and with 4-decimal percents.
    expect(totalCents({ amountCents: 99_999_999_999, quantity: 100_000, tax: 99.9999, discount: 0.0001 })).toBe(
      expectedCents4(99_999_999_999n, 100_000n, 999_999n, 1n),
    );
  });

  it('agrees with an independent integer computation for percents with 4 decimals (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999_900 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (amountCents, quantity, taxUnits, discountUnits) => {
          const tax = taxUnits / 10_000;
          const discount = discountUnits / 10_000;
          expect(hasAtMostDecimals(tax, 4) && hasAtMostDecimals(discount, 4)).toBe(true);
          const cents = totalCents({ amountCents, quantity, tax, discount });
          expect(cents).toBe(expectedCents4(BigInt(amountCents), BigInt(quantity), BigInt(taxUnits), BigInt(discountUnits)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('states its rounding rule with the half-cent example the code computes', () => {
    expect(TOTAL_ROUNDING_RULE).toMatch(/half up/);
    expect(TOTAL_ROUNDING_RULE).toContain('0.055');
    expect(TOTAL_ROUNDING_RULE).toContain('"0.06"');
    expect(totalCents({ amountCents: 5, quantity: 1, tax: 10, discount: 0 })).toBe(6n);
  });

  it('counts decimals on the shortest decimal text, exponents included', () => {
    const cases: [number, number | undefined][] = [
      [1, 0],
      [0.1, 1],
      [3.3335, 4],
      [3.33351, 5],
      [1e-7, 7],
      [1.5e-7, 8],
      [1e21, 0],
      [0.1 + 0.2, 17],
      [-0, 0],
      [Number.NaN, undefined],
      [Number.POSITIVE_INFINITY, undefined],
    ];
    for (const [value, places] of cases) expect(decimalPlaces(value), String(value)).toBe(places);
    for (const ok of [0, 100, 3.3335, 0.0001, 99.9999]) expect(hasAtMostDecimals(ok, 4), String(ok)).toBe(true);
    for (const bad of [3.33351, 0.00001, 1e-7, Number.NaN]) expect(hasAtMostDecimals(bad, 4), String(bad)).toBe(false);
  });

  it('accepts money with at most two decimals only', () => {
    for (const ok of [1, 0.1, 0.01, 100.5, 999_999_999.99]) expect(hasAtMostTwoDecimals(ok)).toBe(true);
    for (const bad of [0.001, 1.005, 10.123, Number.NaN, Number.POSITIVE_INFINITY]) expect(hasAtMostTwoDecimals(bad)).toBe(false);
  });
});
