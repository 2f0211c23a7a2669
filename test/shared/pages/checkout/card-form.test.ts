import { describe, expect, it } from 'vitest';
import { parseCardForm } from '../../../../shared/pages/checkout/card-form';

const now = new Date('2026-11-23T10:00:00Z');
const valid = {
  creditcard_holder: ' Ana Silva ',
  creditcard_number: '4111 1111-1111 1111',
  creditcard_cvv: '123',
  creditcard_month: '12',
  creditcard_year: '2028',
  creditcard_brand: 'Visa',
  installments: '3',
  csrf_token: 'x',
};
const form = (overrides: Record<string, string> = {}) => new URLSearchParams({ ...valid, ...overrides });

describe('the checkout card form', () => {
  it('reads a valid card: digits only, brand normalized, holder trimmed', () => {
    const parsed = parseCardForm(form(), now, 12);
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect(parsed.card).toEqual({ number: '4111111111111111', cvv: '123', month: 12, year: 2028, brand: 'visa', holder: 'Ana Silva', installments: 3 });
  });

  it('takes the brand from the number when none is chosen, and installments 1 by default', () => {
    const parsed = parseCardForm(form({ creditcard_brand: '', installments: '' }), now, 12);
    expect(parsed.ok && parsed.card.brand).toBe('visa');
    expect(parsed.ok && parsed.card.installments).toBe(1);
  });

  it('names every bad field in pt-BR and never gives back the number or CVV', () => {
    const parsed = parseCardForm(
      form({
        creditcard_holder: '',
        creditcard_number: '4111111111111112',
        creditcard_cvv: '12',
        creditcard_month: '13',
        creditcard_year: '2020',
        installments: '13',
      }),
      now,
      12,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.fieldErrors).sort()).toEqual(['creditcard_cvv', 'creditcard_holder', 'creditcard_month', 'creditcard_number', 'installments']);
    expect(parsed.fieldErrors.creditcard_number?.[0]).toMatch(/cartão/i);
    expect(JSON.stringify(parsed)).not.toContain('4111111111111112');
    expect(Object.keys(parsed.values).sort()).toEqual(['brand', 'holder', 'installments', 'month', 'year']);
  });

  it('refuses an expired card, a brand that does not match, and a field sent twice', () => {
    const expired = parseCardForm(form({ creditcard_month: '10', creditcard_year: '2026' }), now, 12);
    expect(!expired.ok && Object.keys(expired.fieldErrors)).toEqual(['creditcard_year']);
    const mismatch = parseCardForm(form({ creditcard_brand: 'mastercard' }), now, 12);
    expect(!mismatch.ok && Object.keys(mismatch.fieldErrors)).toEqual(['creditcard_brand']);
    const twice = new URLSearchParams(form());
    twice.append('creditcard_number', '5555555555554444');
    const doubled = parseCardForm(twice, now, 12);
    expect(!doubled.ok && Object.keys(doubled.fieldErrors)).toContain('creditcard_number');
  });
});
