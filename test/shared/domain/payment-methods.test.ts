import { describe, expect, it } from 'vitest';
import { CHECKOUT_METHODS, METHOD_REGISTRY, PAYMENT_METHODS, parseMethods, paymentMethodOf, settingOfCharge } from '../../../shared/domain/payment-methods';

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

describe('the payment method registry', () => {
  it('names each method once: its setting, its charge method and whether the checkout offers it', () => {
    expect(PAYMENT_METHODS.map((m) => [m, METHOD_REGISTRY[m].charge, METHOD_REGISTRY[m].onCheckout])).toEqual([
      ['pix', 'pix', true],
      ['boleto', 'boleto', false],
      ['card', 'creditcard', true],
    ]);
    expect([...CHECKOUT_METHODS]).toEqual(['pix', 'card']);
  });

  it("gives the setting a charge's method needs", () => {
    expect(settingOfCharge('creditcard')).toBe('card');
    expect(settingOfCharge('pix')).toBe('pix');
    expect(settingOfCharge('boleto')).toBe('boleto');
  });

  it('reads a stored setting or charge name as its setting, and nothing else', () => {
    expect(paymentMethodOf('creditcard')).toBe('card');
    expect(paymentMethodOf('card')).toBe('card');
    expect(paymentMethodOf('boleto')).toBe('boleto');
    expect(paymentMethodOf('bitcoin')).toBeUndefined();
    expect(paymentMethodOf(undefined)).toBeUndefined();
  });
});
