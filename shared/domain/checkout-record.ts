import { formatCents } from './money';
import type { Checkout } from './checkout';
import type { CardBrand } from './card';
import type { CheckoutMethod, CheckoutPaymentType } from './payment-methods';

/**
 * The checkout's rules on its own record (issue 45: out of shared/checkout/, whose pages went to
 * shared/pages/checkout/): the reference's shape, which checkout a tx_ref answers, its API view and the
 * payer's way back. Values in, values out. Drawing a reference and keying a sale (randomness and link
 * tokens) are in shared/app/checkout/checkout-ids.ts; the page link and its CSRF cookie are the HTTP
 * layer's (shared/http/checkout/link.ts, cookies.ts).
 */

/** How the checkout was paid (spec 2.6 `payment_type`). */
export type { CheckoutPaymentType };
/** The payment methods a checkout offers (account settings at entry, among the registry's checkout methods: Pix and card). */
export type { CheckoutMethod };

/** The characters after `CHK-`: no look-alikes (0/O, 1/I). */
export const CHECKOUT_REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CHECKOUT_REFERENCE_SHAPE = /^CHK-[A-Z0-9]{8}$/;

export type { NewCheckout, UnknownCardAttempt } from './checkout';

/** The validated entry form (POST /ext_transfer; shared/pages/checkout/form.ts reads it). `amount` is the unit price (at most 2 decimals); the cents are derived from its text. */
export type CheckoutForm = {
  public_key: string;
  tx_ref: string;
  callback_url: string;
  title: string;
  quantity: number;
  amount: number;
  amount_cents: number;
  /** amount × quantity in cents (spec 1 with tax and discount 0), within `maxTotalCents`. */
  total_cents: number;
  email: string;
  first_name: string;
  last_name: string;
  product_reference?: string;
  product_name?: string;
  signature?: string;
};

/** The card of the checkout page's form, checked (Luhn, brand, CVV length, expiry). Never logged or stored: only brand and last 4 are kept. */
export type CheckoutCard = { number: string; cvv: string; month: number; year: number; brand: CardBrand; holder: string; installments: number };

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
