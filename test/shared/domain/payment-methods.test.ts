import { describe, expect, it } from 'vitest';
import type { CardFields, Invoice } from '../../../shared/domain/invoice';
import {
  CHECKOUT_METHODS,
  METHOD_REGISTRY,
  type MethodFields,
  methodFieldsView,
  PAYMENT_METHODS,
  type PaymentMethod,
  parseMethods,
  paymentMethodOf,
  settingOfCharge,
} from '../../../shared/domain/payment-methods';
import { RAIL_LIMIT_CENTS, RAIL_LIMIT_REASONS } from '../../../shared/domain/rail-limits';
import { invoiceView } from '../../../shared/http/views/invoice-view';
import { invoiceSchema } from '../../../shared/domain/schemas/invoice';
import { anInvoice } from '../../support/records';

describe('parseMethods', () => {
  it('knows every row of the registry, in its order, and the names already on the wire (interfaces) among them', () => {
    expect([...PAYMENT_METHODS]).toEqual(Object.keys(METHOD_REGISTRY));
    expect(PAYMENT_METHODS).toEqual(expect.arrayContaining(['pix', 'boleto', 'card']));
    expect(parseMethods(PAYMENT_METHODS.join(','))).toEqual([...PAYMENT_METHODS]);
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
    const charges = PAYMENT_METHODS.map((m) => METHOD_REGISTRY[m].charge);
    expect(new Set(charges).size).toBe(PAYMENT_METHODS.length);
    expect([...CHECKOUT_METHODS]).toEqual(PAYMENT_METHODS.filter((m) => METHOD_REGISTRY[m].onCheckout));
    // The names on the wire stay what they are: the card charges as creditcard; the checkout offers Pix and the card.
    expect(METHOD_REGISTRY.card.charge).toBe('creditcard');
    expect(CHECKOUT_METHODS).toEqual(expect.arrayContaining(['pix', 'card']));
  });

  it('gives each row a label, an example of its view that its schema accepts, and a paid notice named once', () => {
    const notices: string[] = [];
    for (const method of PAYMENT_METHODS) {
      const row: { label: string; example: unknown; paidNotice?: { type: string } } = METHOD_REGISTRY[method];
      expect(row.label.length, method).toBeGreaterThan(0);
      expect(METHOD_REGISTRY[method].viewSchema.strict().safeParse(row.example).success, method).toBe(true);
      if (row.paidNotice) notices.push(row.paidNotice.type);
    }
    expect(new Set(notices).size).toBe(notices.length);
    expect(notices).toEqual(expect.arrayContaining(['pix.paid', 'boleto.paid']));
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

describe("each method's row: its rail's ceiling and its fields' view", () => {
  it("gives each rail's ceiling by charge name (docs/decisions.md, Ceilings of the totals), with its reason", () => {
    expect(RAIL_LIMIT_CENTS).toEqual(Object.fromEntries(PAYMENT_METHODS.map((m) => [METHOD_REGISTRY[m].charge, METHOD_REGISTRY[m].ceilingCents])));
    expect(RAIL_LIMIT_REASONS).toEqual(Object.fromEntries(PAYMENT_METHODS.map((m) => [METHOD_REGISTRY[m].charge, METHOD_REGISTRY[m].ceilingReason])));
    expect(RAIL_LIMIT_CENTS).toMatchObject({ pix: 999_999_999_999, boleto: 9_999_999_999, creditcard: 999_999_999_999 });
    expect(RAIL_LIMIT_REASONS.boleto).toMatch(/FEBRABAN/);
  });

  it('shows only the fields of the method an invoice carries, each as its row says', () => {
    const invoiceOf = (fields: Partial<Invoice>) => invoiceView({ ...anInvoice({ pix: undefined }), ...fields }, Buffer.alloc(32, 7), 'https://pay.example');
    const pix = invoiceOf({ pix: { txid: 'T1', location: 'loc', copy: '0002' } });
    expect(pix).toMatchObject({ txid: 'T1', copy: '0002' });
    expect(pix).not.toHaveProperty('barcode');
    expect(pix).not.toHaveProperty('card');
    const boleto = invoiceOf({ method: 'boleto', boleto: { barcode: '1'.repeat(44), digitable: '2'.repeat(47), customerId: 7 } });
    expect(boleto).toMatchObject({
      customer: 7,
      barcode: '1'.repeat(44),
      digitable: '2'.repeat(47),
      boleto: expect.stringMatching(/^https:\/\/pay\.example\/boleto\/INV-AAAAAA\//),
    });
    expect(boleto).not.toHaveProperty('txid');
    const card = { brand: 'visa', last4: '1111', installments: 2, transactionId: 'tx_1', transactionStatus: 1, description: 'Camiseta' };
    expect(invoiceOf({ method: 'creditcard', card })).toMatchObject({
      card: { brand: 'visa', last4: '1111', installments: 2 },
      transaction: { id: 'tx_1', amount: '25.00', status: 1, description: 'Camiseta', method: 'creditcard' },
    });
    // A card charge whose answer was lost has no transaction yet.
    const lost = { brand: 'visa', last4: '1111', installments: 1 } as unknown as CardFields;
    expect(invoiceOf({ method: 'creditcard', card: lost })).not.toHaveProperty('transaction');
    expect(methodFieldsView('card', undefined, { reference: 'INV-AAAAAA', totalCents: 1, boletoUrl: () => '' })).toEqual({});
  });

  it("shows each method's fields exactly as its row's view schema describes them (no field unlisted)", () => {
    const context = { reference: 'INV-AAAAAA', totalCents: 2_500, boletoUrl: () => 'https://pay.example/boleto/INV-AAAAAA/sig' };
    const samples: { [M in PaymentMethod]: MethodFields[M] } = {
      pix: { txid: 'T1', location: 'loc', copy: '0002' },
      boleto: { barcode: '1'.repeat(44), digitable: '2'.repeat(47), customerId: 7 },
      card: { brand: 'visa', last4: '1111', installments: 2, transactionId: 'tx_1', transactionStatus: 1, description: 'Camiseta' },
    };
    for (const method of PAYMENT_METHODS) {
      const view = methodFieldsView(method, samples[method], context);
      expect(Object.keys(view).length, method).toBeGreaterThan(0);
      expect(METHOD_REGISTRY[method].viewSchema.strict().safeParse(view).success, method).toBe(true);
    }
  });

  it("ends the invoice object's schema with every row's view fields, each optional", () => {
    const methodKeys = PAYMENT_METHODS.flatMap((method) => Object.keys(METHOD_REGISTRY[method].viewSchema.shape));
    expect(methodKeys).toEqual(expect.arrayContaining(['txid', 'copy', 'qrcode', 'customer', 'boleto', 'barcode', 'digitable', 'card', 'transaction']));
    const shape = invoiceSchema.shape as Record<string, { safeParse: (value: unknown) => { success: boolean } }>;
    expect(Object.keys(shape).slice(-methodKeys.length)).toEqual(methodKeys);
    for (const key of methodKeys) expect(shape[key]?.safeParse(undefined).success, key).toBe(true);
  });
});
