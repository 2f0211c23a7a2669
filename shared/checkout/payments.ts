import { createHash } from 'node:crypto';
import type { CardBrand } from '../cards/card';
import { brazilDate } from '../dates';
import { newEvent } from '../events/outbox';
import { outboxWrite } from '../adapters/dynamo/outbox';
import { invoiceItemWrites } from '../adapters/dynamo/invoices';
import { voidUnlessRecorded } from '../app/charges/void-unless-recorded';
import { voidPorts } from '../wiring/cards';
import { paymentCredit } from '../domain/ledger';
import { transferWrites } from '../adapters/dynamo/ledger';
import { invoiceByReference } from '../adapters/dynamo/invoice-lookup';
import { type CardFields, invoiceItem, type InvoiceIds, type NewInvoice } from '../invoices/record';
import { invoiceEventData } from '../domain/invoice';
import { createPixCharge } from '../app/charges/create-pix-charge';
import type { Change } from '../domain/changes';
import { pixChargePorts } from '../wiring/charges';
import type { Runtime } from '../runtime';
import type { TxWrite } from '../adapters/dynamo/transact';
import { checkoutByReference } from '../adapters/dynamo/checkout-lookup';
import type { Checkout, NewCheckout } from '../domain/checkout';
import { checkoutPaidWrites } from '../adapters/dynamo/checkout-settle';

/** What the checkout's invoices share: the checkout's sale as one invoice of the account (tax and discount 0). */
function saleInvoice(checkout: NewCheckout, ids: { invoiceId: number; reference: string }, now: Date) {
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

const PIX_FAILED = 'O provedor de pagamentos não respondeu; tente novamente em instantes.';

/**
 * The Pix charge of a new checkout, through the one Pix charge use case (shared/app/charges/
 * create-pix-charge.ts): asked of the provider once (a failure → 502, nothing recorded), due the day
 * the checkout expires (Brazil's date), ids checked unused first. Returns the invoice and its change,
 * for the checkout's own transaction.
 */
export async function checkoutPixInvoice(runtime: Runtime, checkout: NewCheckout, now: Date): Promise<{ invoice: NewInvoice; changes: Change[] }> {
  const { answer, changes } = await createPixCharge(pixChargePorts(runtime), {
    base: (ids) => saleInvoice(checkout, ids, now),
    totalCents: checkout.totalCents,
    dueDate: brazilDate(new Date(now.getTime() + runtime.config.checkout.ttlSeconds * 1000)),
    merchantName: checkout.merchantName,
    payer: { email: checkout.email, name: `${checkout.firstName} ${checkout.lastName}` },
    failure: PIX_FAILED,
    now,
  });
  return { invoice: answer, changes };
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
 * The writes of an approved card payment of a checkout, in ONE transaction: the card invoice (PAID),
 * its id reservation, the balance credit, invoice.paid, the checkout's move to PAID and order.paid.
 * A checkout paid meanwhile fails the transaction with CheckoutSettledError (nothing written: the
 * caller voids the authorization). `providerName`: the provider that authorized (default: the configured one).
 */
export async function checkoutCardPayment(
  runtime: Runtime,
  checkout: Checkout,
  ids: InvoiceIds,
  card: CardSummary,
  approved: { transactionId: string; status: number },
  now: Date,
  providerName: string = runtime.config.payments.cardAndBoletoProvider,
): Promise<{ writes: TxWrite[] }> {
  const table = runtime.config.tableName;
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
    provider: providerName,
  };
  const item = invoiceItem(invoice, (await runtime.serviceKeys()).personalData);
  const { accountId } = checkout;
  return {
    writes: [
      ...invoiceItemWrites(table, item),
      ...transferWrites(
        table,
        paymentCredit(
          { accountId, reference: ids.reference, description: `Payment of ${ids.reference} (creditcard, checkout ${checkout.reference})`, at: paidAt },
          checkout.totalCents,
        ),
      ),
      outboxWrite(table, accountId, newEvent('invoice.paid', invoiceEventData(invoice, 'PAID'), now)),
      ...checkoutPaidWrites(table, checkout, { paymentType: 'creditcard', invoiceReference: ids.reference, paidAt }, now),
    ],
  };
}

/**
 * Voids a checkout's approved card authorization that this request could not record, unless it is
 * recorded after all: under this request's invoice reference (an ambiguous commit), or as the card
 * invoice that paid the checkout (another request of the same attempt, sharing the idempotency key).
 */
export function voidCheckoutCardUnlessRecorded(runtime: Runtime, checkoutReference: string, invoiceReference: string, transactionId: string): Promise<void> {
  return voidUnlessRecorded(voidPorts(runtime), invoiceReference, transactionId, async () => {
    const checkout = await checkoutByReference(runtime, checkoutReference);
    if (checkout?.invoiceReference === undefined) return false;
    const paying = await invoiceByReference(runtime, checkout.invoiceReference);
    return (paying?.card as { transactionId?: unknown } | undefined)?.transactionId === transactionId;
  });
}

/** How long a card attempt's lease lasts: past the provider's timeout and the API function's 10 s. */
export function cardLeaseMs(providerTimeoutMs: number): number {
  return Math.max(15_000, 2 * providerTimeoutMs + 5_000);
}
