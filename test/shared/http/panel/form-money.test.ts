import { describe, expect, it } from 'vitest';
import { centsFromFormAmount } from '../../../../shared/http/panel/form-money';

describe('an amount typed in a panel form', () => {
  it('reads the ways people in Brazil write it, to integer cents', () => {
    expect(centsFromFormAmount('1.234,56')).toBe(123_456);
    expect(centsFromFormAmount('1234,5')).toBe(123_450);
    expect(centsFromFormAmount('1234.56')).toBe(123_456);
    expect(centsFromFormAmount('R$ 30')).toBe(3_000);
    expect(centsFromFormAmount(' 0,01 ')).toBe(1);
    expect(centsFromFormAmount('1.000.000,00')).toBe(100_000_000);
  });

  it('refuses what is not an amount instead of guessing', () => {
    for (const text of ['', '30,001', '-5', '1e3', '1,234.56', '12.34.56', 'abc', '1.23,4', '0x10', '١٢'])
      expect(centsFromFormAmount(text), text).toBeUndefined();
  });
});
