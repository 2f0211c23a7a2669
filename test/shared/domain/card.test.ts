import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CardBrand, type CardInput, cardFieldErrors, detectBrand, last4, luhnValid, normalizeBrand } from '../../../shared/domain/card';

/** Independent Luhn: double every second digit from the right, add the digits of the doubled values. */
function referenceLuhn(number: string): boolean {
  const digits = number.split('').map(Number).reverse();
  const total = digits.reduce((sum, digit, index) => {
    if (index % 2 === 0) return sum + digit;
    const doubled = String(digit * 2);
    return sum + doubled.split('').reduce((s, c) => s + Number(c), 0);
  }, 0);
  return number.length > 0 && total % 10 === 0;
}

/** Well-known gateway test numbers (Luhn-valid) and their brands. */
const TEST_CARDS: Array<[string, CardBrand]> = [
  ['4111111111111111', 'visa'],
  ['5555555555554444', 'mastercard'],
  ['2223003122003222', 'mastercard'],
  ['378282246310005', 'amex'],
  ['6362970000457013', 'elo'],
  ['6062825624254001', 'hipercard'],
  ['36227206271667', 'diners'],
  ['6011111111111117', 'discover'],
  ['3530111333300000', 'jcb'],
];

/** Flips the last digit, which always breaks Luhn. */
function breakLuhn(number: string): string {
  const last = Number(number.slice(-1));
  return number.slice(0, -1) + String((last + 1) % 10);
}

const NOW = new Date('2026-03-15T12:00:00Z');
const valid: CardInput = { number: '4111111111111111', cvv: '123', month: 12, year: 2030, brand: 'visa' };

describe('normalizeBrand', () => {
  it.each([
    ['visa', 'visa'],
    ['VISA', 'visa'],
    [' Visa ', 'visa'],
    ['mastercard', 'mastercard'],
    ['MasterCard', 'mastercard'],
    ['master', 'mastercard'],
    ['Master', 'mastercard'],
    ['amex', 'amex'],
    ['American Express', 'amex'],
    ['AMERICAN  EXPRESS', 'amex'],
    ['elo', 'elo'],
    ['Hipercard', 'hipercard'],
    ['diners', 'diners'],
    ['Diners Club', 'diners'],
    ['discover', 'discover'],
    ['JCB', 'jcb'],
  ])('%j → %s', (text, brand) => {
    expect(normalizeBrand(text)).toBe(brand);
  });

  it.each(['', 'maestro', 'unionpay', 'hiper', 'visa electron', 'american-express', 'constructor', 'toString', '__proto__'])('%j → undefined', (text) => {
    expect(normalizeBrand(text)).toBeUndefined();
  });
});

describe('detectBrand and luhnValid', () => {
  it.each(TEST_CARDS)('%s is %s and Luhn-valid', (number, brand) => {
    expect(detectBrand(number)).toBe(brand);
    expect(luhnValid(number)).toBe(true);
    expect(luhnValid(breakLuhn(number))).toBe(false);
  });

  it('finds no supported brand for unknown prefixes or non-digits', () => {
    expect(detectBrand('9999999999999995')).toBeUndefined();
    expect(detectBrand('6370950000000005')).toBeUndefined(); // Hiper (not Hipercard) is not supported
    expect(detectBrand('4111 1111 1111 1111')).toBeUndefined();
    expect(detectBrand('')).toBeUndefined();
  });

  it('rejects non-digit and empty input', () => {
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('4111-1111-1111-1111')).toBe(false);
    expect(luhnValid('0')).toBe(true);
    expect(luhnValid('18')).toBe(true);
    expect(luhnValid('19')).toBe(false);
  });

  it('property: agrees with an independent Luhn for random digit strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 25 }), (number) => {
        expect(luhnValid(number)).toBe(referenceLuhn(number));
      }),
      { numRuns: 2000 },
    );
  });

  it('property: appending the right check digit makes any payload valid and any other digit invalid', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 18 }), (payload) => {
        const candidates = [...'0123456789'].map((d) => payload + d);
        expect(candidates.filter(luhnValid)).toHaveLength(1);
      }),
    );
  });
});

describe('cardFieldErrors', () => {
  it('is empty for every valid test card with its brand and CVV size', () => {
    for (const [number, brand] of TEST_CARDS) {
      const cvv = brand === 'amex' ? '1234' : '123';
      expect(cardFieldErrors({ number, cvv, month: 1, year: 2031, brand }, NOW)).toEqual({});
    }
    expect(cardFieldErrors({ ...valid, number: '5555555555554444', brand: 'Master' }, NOW)).toEqual({});
    expect(cardFieldErrors({ ...valid, number: '378282246310005', cvv: '1234', brand: 'American Express' }, NOW)).toEqual({});
    expect(cardFieldErrors({ ...valid, number: '36227206271667', brand: 'Diners Club' }, NOW)).toEqual({});
  });

  it.each(TEST_CARDS)('reports a Luhn-invalid variant of %s on creditcard_number only', (number, brand) => {
    const cvv = brand === 'amex' ? '1234' : '123';
    expect(cardFieldErrors({ number: breakLuhn(number), cvv, month: 1, year: 2031, brand }, NOW)).toEqual({
      creditcard_number: ['is not a valid card number'],
    });
  });

  it.each(['41111111111', '41111111111111111111', '4111 1111 1111 1111', '4111x11111111111', ''])('rejects the malformed number %j', (number) => {
    expect(cardFieldErrors({ ...valid, number }, NOW).creditcard_number).toEqual(['must be 12 to 19 digits']);
  });

  it('accepts 12 and 19 digit Luhn-valid numbers as well formed', () => {
    expect(cardFieldErrors({ ...valid, number: '4000000000000000006' }, NOW).creditcard_number).toBeUndefined(); // 19 digits, Luhn-valid visa
    const twelve = '411111111111'; // 12 digits
    expect(referenceLuhn(twelve)).toBe(false);
    expect(cardFieldErrors({ ...valid, number: twelve }, NOW).creditcard_number).toEqual(['is not a valid card number']);
  });

  it('reports a brand that is not the number’s, or that is unknown', () => {
    expect(cardFieldErrors({ ...valid, brand: 'mastercard' }, NOW)).toEqual({ creditcard_brand: ['does not match the card number'] });
    expect(cardFieldErrors({ ...valid, number: '6362970000457013', brand: 'visa' }, NOW)).toEqual({ creditcard_brand: ['does not match the card number'] });
    expect(cardFieldErrors({ ...valid, number: '9999999999999995', brand: 'visa' }, NOW)).toEqual({ creditcard_brand: ['does not match the card number'] });
    expect(cardFieldErrors({ ...valid, brand: 'maestro' }, NOW).creditcard_brand).toEqual([
      'must be one of visa, mastercard, amex, elo, hipercard, diners, discover, jcb',
    ]);
  });

  it('requires a 4-digit CVV for amex and a 3-digit CVV for the others', () => {
    const amex = { ...valid, number: '378282246310005', brand: 'amex' };
    expect(cardFieldErrors({ ...amex, cvv: '1234' }, NOW)).toEqual({});
    expect(cardFieldErrors({ ...amex, cvv: '123' }, NOW)).toEqual({ creditcard_cvv: ['must be 4 digits'] });
    expect(cardFieldErrors({ ...valid, cvv: '1234' }, NOW)).toEqual({ creditcard_cvv: ['must be 3 digits'] });
    expect(cardFieldErrors({ ...valid, cvv: '12' }, NOW)).toEqual({ creditcard_cvv: ['must be 3 digits'] });
    expect(cardFieldErrors({ ...valid, cvv: '12a' }, NOW)).toEqual({ creditcard_cvv: ['must be 3 digits'] });
    expect(cardFieldErrors({ ...valid, cvv: ' 123' }, NOW)).toEqual({ creditcard_cvv: ['must be 3 digits'] });
    expect(cardFieldErrors({ ...valid, cvv: '' }, NOW)).toEqual({ creditcard_cvv: ['must be 3 digits'] });
  });

  it.each([0, 13, -1, 1.5, Number.NaN])('rejects the month %d', (month) => {
    expect(cardFieldErrors({ ...valid, month }, NOW)).toEqual({ creditcard_month: ['must be a month from 1 to 12'] });
  });

  it.each([30, 999, 10_000, 2030.5, Number.NaN])('rejects the year %d', (year) => {
    expect(cardFieldErrors({ ...valid, year }, NOW)).toEqual({ creditcard_year: ['must be a 4-digit year'] });
  });

  it('treats a card as valid through the last day of its expiry month (UTC)', () => {
    expect(cardFieldErrors({ ...valid, month: 3, year: 2026 }, NOW)).toEqual({}); // this month
    expect(cardFieldErrors({ ...valid, month: 2, year: 2026 }, NOW)).toEqual({ creditcard_year: ['the card has expired'] }); // last month
    expect(cardFieldErrors({ ...valid, month: 12, year: 2025 }, NOW)).toEqual({ creditcard_year: ['the card has expired'] });
    expect(cardFieldErrors({ ...valid, month: 4, year: 2025 }, NOW)).toEqual({ creditcard_year: ['the card has expired'] });
    expect(cardFieldErrors({ ...valid, month: 3, year: 2026 }, new Date('2026-03-31T23:59:59.999Z'))).toEqual({});
    expect(cardFieldErrors({ ...valid, month: 3, year: 2026 }, new Date('2026-04-01T00:00:00.000Z'))).toEqual({
      creditcard_year: ['the card has expired'],
    });
    expect(cardFieldErrors({ ...valid, month: 12, year: 2026 }, new Date('2026-12-31T23:59:59.999Z'))).toEqual({});
    expect(cardFieldErrors({ ...valid, month: 12, year: 2026 }, new Date('2027-01-01T00:00:00.000Z'))).toEqual({
      creditcard_year: ['the card has expired'],
    });
  });

  it('collects several errors at once', () => {
    expect(cardFieldErrors({ number: '4111111111111112', cvv: 'x', month: 13, year: 20, brand: 'foo' }, NOW)).toEqual({
      creditcard_number: ['is not a valid card number'],
      creditcard_cvv: ['must be 3 digits'],
      creditcard_month: ['must be a month from 1 to 12'],
      creditcard_year: ['must be a 4-digit year'],
      creditcard_brand: ['must be one of visa, mastercard, amex, elo, hipercard, diners, discover, jcb'],
    });
  });

  it('property: no message ever contains the card number, the CVV or any long digit run', () => {
    const digits = (min: number, max: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    fc.assert(
      fc.property(
        fc.oneof(digits(4, 22), fc.constantFrom(...TEST_CARDS.map(([n]) => n))),
        digits(1, 6),
        fc.integer({ min: -2, max: 14 }),
        fc.integer({ min: 1990, max: 2040 }),
        fc.constantFrom('visa', 'amex', 'master', 'elo', 'nope'),
        (number, cvv, month, year, brand) => {
          const messages = Object.values(cardFieldErrors({ number, cvv, month, year, brand }, NOW)).flat();
          for (const message of messages) {
            expect(message).not.toContain(number);
            if (cvv.length >= 3) expect(message).not.toContain(cvv);
            expect(message).not.toMatch(/\d{5,}/);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('last4', () => {
  it('returns the last four digits', () => {
    expect(last4('4111111111111111')).toBe('1111');
    expect(last4('378282246310005')).toBe('0005');
    expect(last4('1234')).toBe('1234');
  });

  it('throws for fewer than 4 digits or non-digits', () => {
    expect(() => last4('123')).toThrow();
    expect(() => last4('4111 1111 1111 1111')).toThrow();
  });
});
