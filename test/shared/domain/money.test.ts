import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, parseAmountToCents } from '../../../shared/domain/money';

describe('parseAmountToCents', () => {
  it.each([
    ['100', 10_000],
    ['0.01', 1],
    ['0', 0],
    ['0.1', 10],
    ['100.5', 10_050],
    ['12.34', 1234],
    ['1234567.89', 123_456_789],
    ['9999999.99', 999_999_999],
    ['007.50', 750],
  ])('parses %j as %d cents', (text, cents) => {
    expect(parseAmountToCents(text)).toBe(cents);
  });

  it.each(['1.234', '-1', '1e3', '', ' 1', '1 ', '1.', '.5', '1,50', '+1', 'abc', '0x10', 'Infinity', '1.2.3', '12345678901234'])('throws for %j', (text) => {
    expect(() => parseAmountToCents(text)).toThrow();
  });
});

describe('formatCents', () => {
  it.each([
    [0, '0.00'],
    [1, '0.01'],
    [10, '0.10'],
    [100, '1.00'],
    [123_456, '1234.56'],
    [999_999_999, '9999999.99'],
    [-150, '-1.50'],
    [-5, '-0.05'],
    [-123_456, '-1234.56'],
  ])('formats %d cents as %j', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it('throws for a fraction of a cent or an unsafe integer', () => {
    expect(() => formatCents(1.5)).toThrow();
    expect(() => formatCents(Number.NaN)).toThrow();
    expect(() => formatCents(Number.MAX_SAFE_INTEGER + 1)).toThrow();
  });

  it('writes reais and two-digit centavos for any integer (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }), (cents) => {
        const abs = Math.abs(cents);
        const expected = `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
        expect(formatCents(cents)).toBe(expected);
      }),
    );
  });
});

describe('parseAmountToCents and formatCents', () => {
  it('roundtrip integer cents through the normalized 2-decimal text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(parseAmountToCents(text)).toBe(cents);
        expect(formatCents(parseAmountToCents(text))).toBe(text);
      }),
    );
  });

  it('normalize any accepted amount text (leading zeros, 0 to 2 decimals)', () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    fc.assert(
      fc.property(digits(1, 13), fc.option(digits(1, 2), { nil: undefined }), (whole, fraction) => {
        const text = fraction === undefined ? whole : `${whole}.${fraction}`;
        const normalized = `${whole.replace(/^0+(?=\d)/, '')}.${(fraction ?? '').padEnd(2, '0')}`;
        expect(formatCents(parseAmountToCents(text))).toBe(normalized);
      }),
    );
  });
});
