import { describe, expect, it } from 'vitest';
import { boletoCreateBodySchema, cardCreateBodySchema, pixCreateBodySchema } from '../../../../shared/http/route-table/charges';
import { createWithdrawBodySchema } from '../../../../shared/domain/schemas/withdraw';

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

describe('one parse per field (issue 45): the schema gives the use cases typed values', () => {
  it('reads amount once into integer cents, through its decimal text, on every charge body', () => {
    for (const [amount, cents] of [
      [100, 10_000],
      [0.1, 10],
      // Numbers whose product by 100 is not exact in floating point (0.07 × 100 = 7.000000000000001, 1.13 × 100 = 112.99999999999999).
      [0.07, 7],
      [1.13, 113],
      [19.99, 1_999],
      [999_999_999, 99_999_999_900],
      [999_999_998.99, 99_999_999_899],
    ] as const) {
      const parsed = pixCreateBodySchema.parse({ ...COMMON, amount });
      expect(parsed.amount, String(amount)).toBe(cents);
    }
    expect(boletoCreateBodySchema.parse({ ...COMMON, amount: 12.34, customer: 1 }).amount).toBe(1_234);
  });

  it("reads the Pix payer's document once, bare (its punctuation stripped), as the use case sends it", () => {
    expect(pixCreateBodySchema.parse({ ...COMMON, document: ' 529.982.247-25 ' }).document).toBe('52998224725');
    expect(pixCreateBodySchema.parse({ ...COMMON, document: '11.222.333/0001-81' }).document).toBe('11222333000181');
    expect(pixCreateBodySchema.parse(COMMON).document).toBeUndefined();
    expect(pixCreateBodySchema.safeParse({ ...COMMON, document: '529.982.247-24' }).success).toBe(false);
  });

  it("reads a boleto's late-payment percents once, into basis points, as the use case takes them", () => {
    for (const [percent, basisPoints] of [
      [2, 200],
      [0.15, 15],
      [1.1, 110],
      [0.29, 29],
      [0, 0],
    ] as const) {
      const parsed = boletoCreateBodySchema.parse({ ...COMMON, customer: 1, fine: percent, interest: Math.min(percent, 1) });
      expect(parsed.fine, String(percent)).toBe(basisPoints);
      expect(parsed.interest, String(percent)).toBe(Math.min(basisPoints, 100));
    }
    expect(boletoCreateBodySchema.parse({ ...COMMON, customer: 1 }).fine).toBeUndefined();
  });

  it('reads a withdrawal amount once, into cents, as the use case takes it', () => {
    const body = { pixkey: 'ana@example.com', keytype: 'EMAIL', description: 'Saque' };
    expect(createWithdrawBodySchema.parse({ ...body, amount: 0.29 }).amount).toBe(29);
    expect(createWithdrawBodySchema.parse({ ...body, amount: 1234.5 }).amount).toBe(123_450);
  });
});
