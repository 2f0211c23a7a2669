import { describe, expect, it } from 'vitest';
import { boletoCreateBodySchema, cardCreateBodySchema, pixCreateBodySchema } from '../../../../shared/http/route-table/charges';

const COMMON = { amount: 100, quantity: 2, tax: 5, discount: 10, invoice_no: 'A-1', due_date: '2030-01-31', item_name: 'Camiseta' };

/** The issues a Pix body raises, as `field: message`; empty when valid. */
function issues(body: Record<string, unknown>): string[] {
  const result = pixCreateBodySchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('charge percents (spec 2.1: tax and discount, 0 to 100)', () => {
  it('accepts up to 4 decimals on tax and discount', () => {
    for (const value of [0, 3.3, 3.33, 3.335, 3.3335, 0.0001, 99.9999, 100]) {
      expect(issues({ ...COMMON, tax: value, discount: value }), String(value)).toEqual([]);
    }
  });

  it('refuses 5 decimals, naming the field', () => {
    expect(issues({ ...COMMON, tax: 3.33351 })).toEqual(['tax: Must have at most 4 decimals']);
    expect(issues({ ...COMMON, discount: 0.00001 })).toEqual(['discount: Must have at most 4 decimals']);
    expect(issues({ ...COMMON, tax: 0.1 + 0.2 })).toEqual(['tax: Must have at most 4 decimals']);
  });

  it('keeps the range 0 to 100 and numbers only', () => {
    expect(issues({ ...COMMON, tax: 100.0001 })).toHaveLength(1);
    expect(issues({ ...COMMON, discount: -0.0001 })).toHaveLength(1);
    expect(issues({ ...COMMON, tax: '5' })).toHaveLength(1);
    expect(issues({ ...COMMON, tax: Number.POSITIVE_INFINITY })).toHaveLength(1);
  });

  it('applies the same rule on boleto (tax optional) and card bodies', () => {
    const boleto = { ...COMMON, customer: 1 };
    expect(boletoCreateBodySchema.safeParse({ ...boleto, tax: 3.3335 }).success).toBe(true);
    expect(boletoCreateBodySchema.safeParse({ ...boleto, tax: undefined }).success).toBe(true);
    const bad = boletoCreateBodySchema.safeParse({ ...boleto, discount: 3.33351 });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path.join('.'))).toEqual(['discount']);
    const card = {
      ...COMMON,
      email: 'a@example.com',
      installments: 1,
      creditcard_holder: 'A',
      creditcard_number: '4111111111111111',
      creditcard_cvv: '123',
      creditcard_month: 12,
      creditcard_year: 2030,
      creditcard_brand: 'visa',
    };
    expect(cardCreateBodySchema.safeParse({ ...card, tax: 12.3456 }).success).toBe(true);
    expect(cardCreateBodySchema.safeParse({ ...card, tax: 12.34567 }).success).toBe(false);
  });
});

describe('charge amounts stay at 2 decimals', () => {
  it('accepts 2 and refuses 3 decimals on amount', () => {
    expect(issues({ ...COMMON, amount: 10.01 })).toEqual([]);
    expect(issues({ ...COMMON, amount: 10.001 })).toEqual(['amount: Must have at most 2 decimals']);
    expect(issues({ ...COMMON, amount: 999_999_999.999 })).toContain('amount: Must have at most 2 decimals');
  });
});
