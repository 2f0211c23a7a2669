import { describe, expect, it } from 'vitest';
import { PAYMENT_METHODS, parseMethods } from '../../../shared/accounts/methods';

describe('parseMethods', () => {
  it('knows pix, boleto and card', () => {
    expect([...PAYMENT_METHODS]).toEqual(['pix', 'boleto', 'card']);
  });

  it('parses a comma-separated list', () => {
    expect(parseMethods('pix,card')).toEqual(['pix', 'card']);
    expect(parseMethods('boleto')).toEqual(['boleto']);
  });

  it('ignores case, spaces, empty items and duplicates, and answers in the canonical order', () => {
    expect(parseMethods(' Card , PIX ,, pix,')).toEqual(['pix', 'card']);
    expect(parseMethods('card,boleto,pix')).toEqual(['pix', 'boleto', 'card']);
  });

  it('gives no methods for an empty list', () => {
    expect(parseMethods('')).toEqual([]);
    expect(parseMethods(' , ')).toEqual([]);
  });

  it('throws naming every unknown method', () => {
    expect(() => parseMethods('pix,bitcoin')).toThrow(/bitcoin/);
    let message = '';
    try {
      parseMethods('paypal, pix, ted');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('paypal');
    expect(message).toContain('ted');
  });
});
