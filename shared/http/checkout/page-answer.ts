import { checkoutCardLocked } from '../../domain/card-fingerprint';
import { HTML_TYPE, type RouteResult } from '../answer';
import { invoiceByReference } from '../../wiring/lookups';
import { storedQrCode } from '../../domain/qr-code-image';
import type { Runtime } from '../../wiring/runtime';
import type { Checkout } from '../../domain/checkout';
import { type CardNotice, type CheckoutPageView, type PageResult, renderAbandonedPage, renderCheckoutPage, renderReceiptPage } from '../../pages/checkout/page';
import {
  callbackRedirect,
  checkoutPagePath,
  cookieValue,
  CSRF_COOKIE,
  csrfCookieIsOurs,
  csrfSetCookie,
  csrfToken,
  newCsrfCookieValue,
} from '../../checkout/record';

/** The most installments the checkout's card form offers. */
export const CHECKOUT_MAX_INSTALLMENTS = 12;

function html(status: number, page: PageResult, cookies?: string[]): RouteResult {
  return { status, body: page.html, contentType: HTML_TYPE, headers: page.headers, ...(cookies ? { cookies } : {}) };
}

/** The receipt of a paid checkout, or the page of an abandoned one (410). */
export function settledPage(checkout: Checkout): RouteResult | undefined {
  if (checkout.status === 'PAID') {
    return html(
      200,
      renderReceiptPage({
        merchantName: checkout.merchantName,
        title: checkout.title,
        quantity: checkout.quantity,
        totalCents: checkout.totalCents,
        paidAt: checkout.paidAt ?? '',
        paymentType: checkout.paymentType ?? null,
        callbackUrl: callbackRedirect(checkout),
      }),
    );
  }
  if (checkout.status === 'ABANDONED') return html(410, renderAbandonedPage({ merchantName: checkout.merchantName, title: checkout.title }));
  return undefined;
}

/** The Pix block: the BR Code of the checkout's Pix invoice and its QR code, while that invoice can be paid. */
async function pixBlock(runtime: Runtime, checkout: Checkout): Promise<CheckoutPageView['pix']> {
  if (checkout.pixReference === undefined) return undefined;
  const invoice = await invoiceByReference(runtime, checkout.pixReference);
  const copy = invoice?.pix?.copy;
  if (!invoice || invoice.status !== 'PENDING' || typeof copy !== 'string') return undefined;
  // Every Pix invoice stores its QR code at creation; one without it shows the copy-and-paste code alone.
  return { copy, qrDataUri: storedQrCode(invoice) };
}

/** The locked card form's message (pt-BR): the checkout took its declined attempts; Pix still pays it. */
export const CARD_FORM_LOCKED = 'Este pedido não aceita mais tentativas com cartão. Pague com Pix ou volte à loja para começar de novo.';

export type CardFormState = {
  values?: NonNullable<CheckoutPageView['card']>['values'];
  fieldErrors?: NonNullable<CheckoutPageView['card']>['fieldErrors'];
  notice?: CardNotice;
  /** The form locked whatever the checkout's count says (its attempt log refused the post: issue 43). */
  locked?: boolean;
};

/**
 * The page of an open (PENDING or UNKNOWN) checkout: Pix and the card form as enabled. The card form's
 * CSRF token is bound to a cookie of this checkout's path: the browser's cookie when it has a valid one,
 * else a new one (Set-Cookie).
 */
export async function openCheckoutPage(
  runtime: Runtime,
  checkout: Checkout,
  requestCookies: readonly string[] | undefined,
  status: number,
  card: CardFormState = {},
): Promise<RouteResult> {
  const { reference } = checkout;
  const { locked, ...form } = card;
  const { boletoLinks } = await runtime.serviceKeys();
  const given = cookieValue(requestCookies, CSRF_COOKIE);
  const cookie = csrfCookieIsOurs(reference, given, boletoLinks) ? given : newCsrfCookieValue(reference, boletoLinks);
  const path = checkoutPagePath(reference, boletoLinks);
  const view: CheckoutPageView = {
    reference,
    merchantName: checkout.merchantName,
    title: checkout.title,
    quantity: checkout.quantity,
    unitAmountCents: checkout.amountCents,
    totalCents: checkout.totalCents,
    payerName: `${checkout.firstName} ${checkout.lastName}`,
    status: checkout.status === 'UNKNOWN' ? 'UNKNOWN' : 'PENDING',
    pix: await pixBlock(runtime, checkout),
    ...(checkout.methods.includes('card')
      ? {
          card: {
            action: `${path}/card`,
            csrfToken: csrfToken(reference, cookie, boletoLinks),
            installmentsMax: CHECKOUT_MAX_INSTALLMENTS,
            ...form,
            ...(locked === true || checkoutCardLocked(checkout.cardDeclines, runtime.config.cardDeclines.perCheckout) ? { locked: CARD_FORM_LOCKED } : {}),
          },
        }
      : {}),
    statusUrl: `${path}/status`,
    callbackOrigin: new URL(checkout.callbackUrl).origin,
  };
  const secure = runtime.config.publicBaseUrl.startsWith('https:');
  return html(status, renderCheckoutPage(view), given === cookie ? undefined : [csrfSetCookie(reference, cookie, secure)]);
}
