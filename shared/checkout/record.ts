import { randomBytes } from 'node:crypto';
import { linkToken, linkTokenMatches } from '../platform/crypto/link-token';
import { randomString } from '../platform/ids';
import { formatCents } from '../domain/money';
import type { Checkout } from '../domain/checkout';
import type { CheckoutMethod, CheckoutPaymentType } from '../domain/payment-methods';

/** How the checkout was paid (spec 2.6 `payment_type`). */
export type { CheckoutPaymentType };
/** The payment methods a checkout offers (account settings at entry, among the registry's checkout methods: Pix and card). */
export type { CheckoutMethod };

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CHECKOUT_REFERENCE_SHAPE = /^CHK-[A-Z0-9]{8}$/;

/** `CHK-` and eight characters without look-alikes (32^8 ≈ 10^12). */
export function newCheckoutReference(): string {
  return `CHK-${randomString(8, REFERENCE_ALPHABET)}`;
}

export type { NewCheckout, UnknownCardAttempt } from '../domain/checkout';

/**
 * A sale under a tx_ref of an account without signed forms (issue 31): anyone who knows the public key
 * can post a form, so a tx_ref cannot be reserved by its first post (a stranger could take it before
 * the real payer). Each distinct sale (what the form describes: amount, quantity, payer, product, the
 * callback) gets its own checkout under the tx_ref; the same sale posted again finds its own. The key
 * is a keyed hash of the sale (the link key, its own purpose): it names no field.
 */
export function saleKey(sale: Readonly<Record<string, string | number | undefined>>, key: Buffer): string {
  const canonical = Object.keys(sale)
    .sort()
    .map((name) => `${name}=${JSON.stringify(sale[name] ?? null)}`)
    .join('&');
  return linkToken(key, `checkout-sale:${canonical}`);
}

/**
 * The checkout to answer among a tx_ref's (newest first): the one with the total asked for; else the
 * newest PAID one; else the newest. Undefined when none (has that total).
 */
export function chosenCheckout(checkouts: readonly Checkout[], totalCents: number | undefined): Checkout | undefined {
  if (totalCents !== undefined) return checkouts.find((checkout) => checkout.totalCents === totalCents);
  return checkouts.find((checkout) => checkout.status === 'PAID') ?? checkouts[0];
}

/** The checkout object of GET /api/checkout/{tx_ref} (spec 2.6, plus paid_at, product and the paying invoice). */
export function checkoutView(checkout: Checkout): Record<string, unknown> {
  return {
    tx_ref: checkout.txRef,
    reference: checkout.reference,
    status: checkout.status,
    title: checkout.title,
    quantity: checkout.quantity,
    amount: formatCents(checkout.amountCents),
    total: formatCents(checkout.totalCents),
    email: checkout.email,
    first_name: checkout.firstName,
    last_name: checkout.lastName,
    payment_type: checkout.paymentType ?? null,
    created_at: checkout.createdAt,
    paid_at: checkout.paidAt ?? null,
    product: { reference: checkout.productReference ?? null, name: checkout.productName ?? checkout.title },
    invoice_reference: checkout.invoiceReference ?? null,
  };
}

/** Where the payer goes once the checkout is settled: the merchant's callback_url with tx_ref and status added. */
export function callbackRedirect(checkout: Pick<Checkout, 'callbackUrl' | 'txRef' | 'status'>): string {
  const url = new URL(checkout.callbackUrl);
  url.searchParams.set('tx_ref', checkout.txRef);
  url.searchParams.set('status', checkout.status);
  return url.toString();
}

// ---- Links and the card form's CSRF token (keyed with the service's link key, separated by purpose) ----

/** The page link's token: only who received the 303 (the payer's browser) knows the page. */
export function checkoutPageToken(reference: string, key: Buffer): string {
  return linkToken(key, `checkout-page:${reference}`);
}

export function checkoutPageTokenMatches(reference: string, token: string, key: Buffer): boolean {
  return CHECKOUT_REFERENCE_SHAPE.test(reference) && linkTokenMatches(key, `checkout-page:${reference}`, token);
}

export function checkoutPagePath(reference: string, key: Buffer): string {
  return `/checkout/${reference}/${checkoutPageToken(reference, key)}`;
}

/**
 * The CSRF cookie's name and value. The value is the server's, signed (issue 31): a random nonce and
 * its link token for this checkout, `<32 characters>.<32 characters>`; a value the browser brings that
 * this server did not issue for this checkout is replaced, never adopted.
 */
export const CSRF_COOKIE = 'chk_csrf';
export const CSRF_COOKIE_SHAPE = /^[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{32}$/;

export function newCsrfCookieValue(reference: string, key: Buffer): string {
  const nonce = randomBytes(24).toString('base64url');
  return `${nonce}.${linkToken(key, `checkout-csrf-cookie:${reference}:${nonce}`)}`;
}

/** Whether a cookie value was issued by this server for this checkout. */
export function csrfCookieIsOurs(reference: string, value: string | undefined, key: Buffer): value is string {
  if (value === undefined || !CSRF_COOKIE_SHAPE.test(value)) return false;
  const [nonce = '', mac = ''] = value.split('.');
  return linkTokenMatches(key, `checkout-csrf-cookie:${reference}:${nonce}`, mac);
}

/** The card form's hidden token: bound to the checkout and to the browser's cookie (double submit, signed). */
export function csrfToken(reference: string, cookieValue: string, key: Buffer): string {
  return linkToken(key, `checkout-csrf:${reference}:${cookieValue}`);
}

export function csrfTokenMatches(reference: string, cookieValue: string | undefined, token: string | undefined, key: Buffer): boolean {
  if (token === undefined || !csrfCookieIsOurs(reference, cookieValue, key)) return false;
  return linkTokenMatches(key, `checkout-csrf:${reference}:${cookieValue}`, token);
}

/** The cookie's value among the request's cookies (API Gateway v2 `cookies`: "name=value" strings). */
export function cookieValue(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const cookie of cookies ?? []) {
    const at = cookie.indexOf('=');
    if (at > 0 && cookie.slice(0, at).trim() === name) return cookie.slice(at + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie of the CSRF cookie: this checkout's path only, no script access, never sent cross-site. */
export function csrfSetCookie(reference: string, value: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${value}; Path=/checkout/${reference}; HttpOnly; SameSite=Strict; Max-Age=86400${secure ? '; Secure' : ''}`;
}
