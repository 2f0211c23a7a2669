import { describe, expect, it } from 'vitest';
import { checkoutItem, openIndexAttributes } from '../../../shared/adapters/dynamo/checkout-item';
import { orderEventData } from '../../../shared/domain/checkout';
import {
  callbackRedirect,
  CHECKOUT_REFERENCE_SHAPE,
  checkoutPagePath,
  checkoutPageToken,
  checkoutPageTokenMatches,
  checkoutView,
  cookieValue,
  CSRF_COOKIE_SHAPE,
  csrfSetCookie,
  csrfToken,
  csrfCookieIsOurs,
  csrfTokenMatches,
  newCheckoutReference,
  newCsrfCookieValue,
  type NewCheckout,
} from '../../../shared/checkout/record';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);

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

describe('checkout references and links', () => {
  it('draws CHK- and 8 characters without look-alikes', () => {
    const drawn = new Set(Array.from({ length: 200 }, newCheckoutReference));
    expect(drawn.size).toBe(200);
    for (const reference of drawn) {
      expect(reference).toMatch(CHECKOUT_REFERENCE_SHAPE);
      expect(reference.slice(4)).not.toMatch(/[01IO]/);
    }
  });

  it('a page token opens only its own checkout, under the service key', () => {
    const token = checkoutPageToken(checkout.reference, KEY);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(checkoutPageTokenMatches(checkout.reference, token, KEY)).toBe(true);
    expect(checkoutPageTokenMatches('CHK-ABCDEFGJ', token, KEY)).toBe(false);
    expect(checkoutPageTokenMatches(checkout.reference, checkoutPageToken(checkout.reference, OTHER_KEY), KEY)).toBe(false);
    expect(checkoutPageTokenMatches(checkout.reference, `${token.slice(0, -1)}x`, KEY)).toBe(token.endsWith('x'));
    expect(checkoutPageTokenMatches('INV-ABCDEF', checkoutPageToken('INV-ABCDEF', KEY), KEY)).toBe(false);
    expect(checkoutPagePath(checkout.reference, KEY)).toBe(`/checkout/${checkout.reference}/${token}`);
  });

  it('the CSRF token is bound to the checkout and to the cookie', () => {
    const cookie = newCsrfCookieValue(checkout.reference, KEY);
    expect(cookie).toMatch(CSRF_COOKIE_SHAPE);
    const token = csrfToken(checkout.reference, cookie, KEY);
    expect(csrfTokenMatches(checkout.reference, cookie, token, KEY)).toBe(true);
    expect(csrfTokenMatches(checkout.reference, newCsrfCookieValue(checkout.reference, KEY), token, KEY)).toBe(false);
    expect(csrfTokenMatches('CHK-ZZZZZZZZ', cookie, token, KEY)).toBe(false);
    expect(csrfTokenMatches(checkout.reference, undefined, token, KEY)).toBe(false);
    expect(csrfTokenMatches(checkout.reference, cookie, undefined, KEY)).toBe(false);
    expect(csrfTokenMatches(checkout.reference, 'short', csrfToken(checkout.reference, 'short', KEY), KEY)).toBe(false);
  });

  it("the CSRF cookie's value is the server's: a value the client chose, or one issued for another checkout or key, is not ours", () => {
    const ours = newCsrfCookieValue(checkout.reference, KEY);
    expect(csrfCookieIsOurs(checkout.reference, ours, KEY)).toBe(true);
    const chosen = `${'a'.repeat(32)}.${'b'.repeat(32)}`;
    expect(csrfCookieIsOurs(checkout.reference, chosen, KEY)).toBe(false);
    // A chosen value with a token computed for it is still refused: the cookie itself is not signed.
    expect(csrfTokenMatches(checkout.reference, chosen, csrfToken(checkout.reference, chosen, KEY), KEY)).toBe(false);
    expect(csrfCookieIsOurs('CHK-ZZZZZZZZ', ours, KEY)).toBe(false);
    expect(csrfCookieIsOurs(checkout.reference, ours, Buffer.alloc(32, 9))).toBe(false);
    expect(csrfCookieIsOurs(checkout.reference, 'x'.repeat(32), KEY)).toBe(false);
  });

  it('reads the cookie among others and sets it HttpOnly, SameSite=Strict, on this checkout only (Secure over https)', () => {
    expect(cookieValue(['a=1', ' chk_csrf=abc ', 'b=2'], 'chk_csrf')).toBe('abc');
    expect(cookieValue(['chk_csrfx=1'], 'chk_csrf')).toBeUndefined();
    expect(cookieValue(undefined, 'chk_csrf')).toBeUndefined();
    const set = csrfSetCookie(checkout.reference, 'v', false);
    expect(set).toContain(`Path=/checkout/${checkout.reference}`);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(set).not.toContain('Secure');
    expect(csrfSetCookie(checkout.reference, 'v', true)).toContain('; Secure');
  });
});

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
