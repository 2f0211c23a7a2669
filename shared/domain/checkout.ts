import type { CheckoutStatus, OrderStatus } from './checkout-transitions';
import { formatCents } from './money';
import { versionFields } from './object-version';
import type { CheckoutMethod, CheckoutPaymentType } from './payment-methods';

/** A card attempt whose answer was lost: what the upkeep needs to ask the provider and record the payment (never the number or CVV). */
export type UnknownCardAttempt = { providerKey: string; brand: string; last4: string; installments: number; holder: string; at: string };

/** A new hosted checkout (spec 2.6), PENDING. */
export type NewCheckout = {
  reference: string;
  accountId: string;
  txRef: string;
  merchantName: string;
  title: string;
  quantity: number;
  amountCents: number;
  totalCents: number;
  email: string;
  firstName: string;
  lastName: string;
  productReference?: string;
  productName?: string;
  callbackUrl: string;
  methods: CheckoutMethod[];
  /** The Pix invoice created with the checkout (when Pix is enabled). */
  pixReference?: string;
  createdAt: string;
};

/** A hosted checkout as stored and read back: its status, the payment that paid it and the order that follows that payment. */
export type Checkout = NewCheckout & {
  status: CheckoutStatus;
  /** The card attempt now running or next: its number makes the provider's idempotency key. */
  cardAttempt: number;
  /** Declined card attempts so far (the checkout's cap, issue 31). */
  cardDeclines?: number;
  /** UNKNOWN: the card attempt whose answer was lost. */
  unknownAttempt?: UnknownCardAttempt;
  paymentType?: CheckoutPaymentType;
  /** The invoice that paid the checkout. */
  invoiceReference?: string;
  paidAt?: string;
  abandonedAt?: string;
  /** The order of a paid checkout follows its invoice (canceled, refunded). */
  orderStatus?: OrderStatus;
  /** The order's version: 1 when paid, +1 at each move (shared/domain/object-version.ts); absent before versions were kept: 1. */
  orderVersion?: number;
};

/** The payment that pays a checkout: its rail and invoice. */
export type CheckoutPayment = { paymentType: CheckoutPaymentType; invoiceReference: string; paidAt: string };

/** The `order` object of order events (spec 6.1): the paid checkout as a product sale. */
export function orderEventData(
  checkout: Checkout,
  status: OrderStatus,
  paidAt: string,
  change: { version: number; previousStatus: OrderStatus | null },
): Record<string, unknown> {
  return {
    order: {
      reference: checkout.reference,
      tx_ref: checkout.txRef,
      status,
      total: formatCents(checkout.totalCents),
      quantity: checkout.quantity,
      product: { reference: checkout.productReference ?? null, name: checkout.productName ?? checkout.title },
      customer: { name: `${checkout.firstName} ${checkout.lastName}`, email: checkout.email },
      paid_at: paidAt,
      invoice_reference: checkout.invoiceReference ?? null,
      ...versionFields(change.version, change.previousStatus),
    },
  };
}
