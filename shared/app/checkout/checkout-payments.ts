import { createHash } from 'node:crypto';
import { API_FUNCTION_TIMEOUT_MS } from '../../domain/time-budgets';
import type { CardBrand } from '../../domain/card';
import { brazilDate } from '../../domain/brazil-dates';
import type { Change, OutboxEvent } from '../../domain/changes';
import { type Checkout, type NewCheckout, orderEventData } from '../../domain/checkout';
import { type CardFields, type InvoiceIds, invoiceEventData, type NewInvoice } from '../../domain/invoice';
import { FIRST_VERSION } from '../../domain/object-version';
import { paymentCredit } from '../../domain/ledger';
import type { CheckoutStore } from '../../ports/checkouts';
import { type VoidPorts, voidUnlessRecorded } from '../charges/void-unless-recorded';

/** What the checkout's invoices share: the checkout's sale as one invoice of the account (tax and discount 0). */
export function saleInvoice(checkout: NewCheckout, ids: InvoiceIds, now: Date) {
  return {
    accountId: checkout.accountId,
    invoiceId: ids.invoiceId,
    reference: ids.reference,
    merchantName: checkout.merchantName,
    invoiceNo: checkout.txRef,
    itemName: checkout.title,
    quantity: checkout.quantity,
    amountCents: checkout.amountCents,
    tax: 0,
    discount: 0,
    totalCents: checkout.totalCents,
    createdAt: now.toISOString(),
    checkoutReference: checkout.reference,
  };
}

/**
 * The provider's idempotency key of a checkout's card attempt: one per (checkout, attempt number). A
 * decline moves the checkout to the next attempt; a lost answer keeps it, so the retry (or the upkeep's
 * question) finds the first authorization instead of making a second one.
 */
export function checkoutCardProviderKey(reference: string, attempt: number): string {
  return createHash('sha256').update(`checkout-card:${reference}:${attempt}`).digest('hex');
}

/** What is kept of the card of a payment (never the number or CVV). */
export type CardSummary = { brand: CardBrand | string; last4: string; installments: number; holder: string };

/**
 * The changes of an approved card payment of a checkout, for ONE transaction: the card invoice (PAID)
 * with its id reservation, the balance credit, invoice.paid, the checkout's move to PAID and order.paid.
 * A checkout paid meanwhile fails the transaction with CheckoutSettledError (nothing written: the
 * caller voids the authorization).
 */
export function checkoutCardPaymentChanges(
  checkout: Checkout,
  ids: InvoiceIds,
  card: CardSummary,
  approved: { transactionId: string; status: number },
  payment: { now: Date; providerName: string; newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent },
): Change[] {
  const { now } = payment;
  const paidAt = now.toISOString();
  const cardFields: CardFields = {
    brand: card.brand,
    last4: card.last4,
    installments: card.installments,
    transactionId: approved.transactionId,
    transactionStatus: approved.status,
    description: checkout.title,
  };
  const invoice: NewInvoice = {
    ...saleInvoice(checkout, ids, now),
    method: 'creditcard',
    status: 'PAID',
    dueDate: brazilDate(now),
    paidAt,
    payer: { email: checkout.email, name: card.holder },
    card: cardFields,
    provider: payment.providerName,
  };
  const { accountId } = checkout;
  const paid = { ...checkout, invoiceReference: ids.reference };
  const invoicePaid = payment.newEvent('invoice.paid', invoiceEventData(invoice, 'PAID', { version: FIRST_VERSION, previousStatus: null }), now);
  return [
    { kind: 'invoice.created', invoice: { ...invoice, eventIds: [invoicePaid.id] } },
    paymentCredit(
      { accountId, reference: ids.reference, description: `Payment of ${ids.reference} (creditcard, checkout ${checkout.reference})`, at: paidAt },
      checkout.totalCents,
      'creditcard',
    ),
    { kind: 'event.recorded', accountId, event: invoicePaid },
    {
      kind: 'checkout.paid',
      reference: checkout.reference,
      payment: { paymentType: 'creditcard', invoiceReference: ids.reference, paidAt },
      lostRace: 'already_paid',
    },
    {
      kind: 'event.recorded',
      accountId,
      event: payment.newEvent('order.paid', orderEventData(paid, 'PAID', paidAt, { version: FIRST_VERSION, previousStatus: null }), now),
    },
  ];
}

/**
 * Voids a checkout's approved card authorization that this request could not record, unless it is
 * recorded after all: under this request's invoice reference (an ambiguous commit), or as the card
 * invoice that paid the checkout (another request of the same attempt, sharing the idempotency key).
 */
export function voidCheckoutCardUnlessRecorded(
  ports: VoidPorts & { checkouts: Pick<CheckoutStore, 'get'> },
  checkoutReference: string,
  invoiceReference: string,
  transactionId: string,
): Promise<void> {
  return voidUnlessRecorded(ports, invoiceReference, transactionId, async () => {
    const checkout = await ports.checkouts.get(checkoutReference);
    if (checkout?.invoiceReference === undefined) return false;
    const paying = await ports.invoices.byReference(checkout.invoiceReference);
    return paying?.card?.transactionId === transactionId;
  });
}

/** How long a card attempt's lease lasts: past the provider's timeout and the API function's timeout (shared/domain/time-budgets.ts). */
export function cardLeaseMs(providerTimeoutMs: number): number {
  return Math.max(API_FUNCTION_TIMEOUT_MS + 5_000, 2 * providerTimeoutMs + 5_000);
}
