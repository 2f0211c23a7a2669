import { describe, expect, it } from 'vitest';
import { checkoutItem, openIndexAttributes } from '../../../shared/adapters/dynamo/checkout-item';
import { orderEventData } from '../../../shared/domain/checkout';
import { callbackRedirect, checkoutView, type NewCheckout } from '../../../shared/domain/checkout-record';

const checkout: NewCheckout = {
  reference: 'CHK-ABCDEFGH',
  accountId: 'acct_1',
  txRef: 'order-1',
  merchantName: 'Loja',
  title: 'Camiseta',
  quantity: 2,
  amountCents: 4990,
  totalCents: 9980,
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  productReference: 'SKU-1',
  callbackUrl: 'https://shop.example/done?x=1',
  methods: ['pix', 'card'],
  createdAt: '2026-11-23T10:00:00.000Z',
};

describe('the checkout item and its views', () => {
  it('starts PENDING, unpaid, at attempt 0, in an open partition of the upkeep index sorted by creation', () => {
    const item = checkoutItem(checkout);
    expect(item).toMatchObject({ PK: 'CHK#CHK-ABCDEFGH', SK: 'CHECKOUT', type: 'checkout', status: 'PENDING', paymentType: null, cardAttempt: 0 });
    expect(String(item.GSI2PK)).toMatch(/^CHKOPEN#[0-3]$/);
    expect(item.GSI2SK).toBe(`${checkout.createdAt}#${checkout.reference}`);
    expect(openIndexAttributes('unknown', checkout.createdAt, checkout.reference).GSI2PK).toMatch(/^CHKUNK#[0-3]$/);
  });

  it('answers every field of spec 2.6 with amounts as 2-decimal strings', () => {
    const view = checkoutView({ ...checkout, status: 'PENDING', cardAttempt: 0 });
    expect(view).toEqual({
      tx_ref: 'order-1',
      reference: 'CHK-ABCDEFGH',
      status: 'PENDING',
      title: 'Camiseta',
      quantity: 2,
      amount: '49.90',
      total: '99.80',
      email: 'ana@example.com',
      first_name: 'Ana',
      last_name: 'Silva',
      payment_type: null,
      created_at: checkout.createdAt,
      paid_at: null,
      product: { reference: 'SKU-1', name: 'Camiseta' },
      invoice_reference: null,
    });
  });

  it('the order event carries spec 6.1 fields, its version and the status it left; the product name falls back to the title', () => {
    const data = orderEventData({ ...checkout, status: 'PAID', cardAttempt: 0, invoiceReference: 'INV-AAAAAA' }, 'PAID', '2026-11-23T10:05:00.000Z', {
      version: 1,
      previousStatus: null,
    });
    expect(data).toEqual({
      order: {
        reference: 'CHK-ABCDEFGH',
        tx_ref: 'order-1',
        status: 'PAID',
        total: '99.80',
        quantity: 2,
        product: { reference: 'SKU-1', name: 'Camiseta' },
        customer: { name: 'Ana Silva', email: 'ana@example.com' },
        paid_at: '2026-11-23T10:05:00.000Z',
        invoice_reference: 'INV-AAAAAA',
        version: 1,
        previous_status: null,
      },
    });
  });

  it('sends the payer back to callback_url with tx_ref and status added to its own query', () => {
    const url = new URL(callbackRedirect({ ...checkout, status: 'PAID' }));
    expect(url.origin + url.pathname).toBe('https://shop.example/done');
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('tx_ref')).toBe('order-1');
    expect(url.searchParams.get('status')).toBe('PAID');
  });
});
