import { randomUUID } from 'node:crypto';
import { last4 } from '../../domain/card';
import { CARD_DECLINED_MESSAGE, cardAttemptScopes, cardFingerprint, checkoutCardLocked } from '../../domain/card-fingerprint';
import type { CheckoutCard } from '../../pages/checkout/card-form';
import type { DeclineLimits } from '../../domain/card-attempt';
import type { Change, OutboxEvent } from '../../domain/changes';
import type { Checkout } from '../../domain/checkout';
import { BadRequestError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
import type { AttemptSlots } from '../../ports/attempt-slots';
import type { AccountDirectory, CheckoutStore } from '../../ports/checkouts';
import type { InvoiceIdPort, InvoiceStore } from '../../ports/invoices';
import { releaseQuietly } from '../limits/attempt-slots';
import { type CardAuthorization, type PaymentProvider, ProviderError } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';
import { cardLeaseMs, checkoutCardPaymentChanges, checkoutCardProviderKey, voidCheckoutCardUnlessRecorded } from './checkout-payments';

export type CheckoutCardPorts = {
  accounts: Pick<AccountDirectory, 'get'>;
  checkouts: Pick<CheckoutStore, 'get'>;
  invoices: Pick<InvoiceStore, 'byReference'>;
  /** The card-testing caps' logs (issue 43): a slot taken before the provider is asked. */
  slots: AttemptSlots;
  limits: DeclineLimits & { perCheckout: number };
  ids: InvoiceIdPort;
  /** The configured card provider. */
  provider: PaymentProvider;
  timeoutMs: number;
  idempotencyKey: () => Promise<Buffer>;
  newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent;
  /** Commits changes now, outside the route's transaction (the attempt's claim). */
  commit: (changes: readonly Change[]) => Promise<void>;
};

/** What became of a card form's payment, for the page to tell: each carries the changes to commit with the answer. */
export type CheckoutCardOutcome =
  | { kind: 'declines_locked'; retryAfterSeconds: number }
  | { kind: 'checkout_locked' }
  | { kind: 'lost'; changes: Change[] }
  | { kind: 'declined'; changes: Change[] }
  | { kind: 'failed'; changes: Change[] }
  | { kind: 'paid'; changes: Change[]; compensate: () => Promise<void> };

/** The card is still enabled and the account not disabled (both may have changed since the checkout was created). */
async function assertCardAccepted(ports: CheckoutCardPorts, accountId: string): Promise<void> {
  const account = await ports.accounts.get(accountId);
  if (!account || account.disabled || !account.methods.includes('card')) {
    throw new BadRequestError('O pagamento com cartão não está disponível para esta loja no momento.', 'method_not_enabled');
  }
}

/** One authorization under the attempt's key; undefined when its answer was lost (timeout or provider failure). */
async function authorize(
  ports: CheckoutCardPorts,
  checkout: Checkout,
  card: CheckoutCard,
  providerKey: string,
  reference: string,
): Promise<CardAuthorization | undefined> {
  try {
    return await withProviderTimeout(
      ports.provider.charges.card({
        idempotencyKey: providerKey,
        reference,
        amountCents: checkout.totalCents,
        installments: card.installments,
        description: checkout.title,
        card: { number: card.number, cvv: card.cvv, month: card.month, year: card.year, brand: card.brand, holder: card.holder },
      }),
      ports.timeoutMs,
    );
  } catch (err) {
    if (err instanceof ProviderError) return undefined;
    throw err;
  }
}

/**
 * The first step of a card form's payment, before its fields are read: the account must still accept
 * the card (400), and a checkout that took its declined attempts asks the provider nothing more
 * (card testing, issue 31: the page again, its form locked).
 */
export async function checkoutCardRefusal(ports: CheckoutCardPorts, checkout: Checkout): Promise<{ kind: 'checkout_locked' } | undefined> {
  await assertCardAccepted(ports, checkout.accountId);
  if (!checkoutCardLocked(checkout.cardDeclines, ports.limits.perCheckout)) return undefined;
  logger.warn('card attempt refused: the checkout took its declined attempts', { checkout: checkout.reference, accountId: checkout.accountId });
  return { kind: 'checkout_locked' };
}

/** Gives up a claim before the provider is asked; a lease that cannot be removed expires on its own (cardLeaseMs). */
async function unclaim(ports: CheckoutCardPorts, checkout: Checkout, leaseId: string): Promise<void> {
  try {
    await ports.commit([{ kind: 'checkout.card_unclaimed', checkout, leaseId }]);
  } catch (err) {
    logger.warn('checkout card lease not removed: it expires on its own', {
      checkout: checkout.reference,
      error: err instanceof Error ? err.name : String(err),
    });
  }
}

/**
 * A card payment of an open checkout (checkoutCardRefusal passed, the form's fields valid): the attempt
 * first takes a slot in the card's, the merchant's and the checkout's logs, in one conditional write
 * (issue 43), once the checkout's current attempt is claimed (one at a time: 409); a full log asks the
 * provider nothing and gives the claim back (the card's or merchant's: 429 with Retry-After; the
 * checkout's: its form locked). Then the provider is asked under the attempt's key, and:
 * approved → the card invoice, credit, invoice.paid, the checkout PAID and order.paid (voided unless
 * recorded when that cannot commit); declined or failed → PENDING at the next attempt (a decline
 * counted); no answer → UNKNOWN until the provider tells (the upkeep asks it). The number and CVV are
 * never stored, logged or echoed.
 */
export async function payCheckoutByCard(ports: CheckoutCardPorts, checkout: Checkout, card: CheckoutCard, now: Date): Promise<CheckoutCardOutcome> {
  const { reference, accountId } = checkout;
  const scope = { fingerprint: cardFingerprint(card.number, await ports.idempotencyKey()), accountId };
  const providerKey = checkoutCardProviderKey(reference, checkout.cardAttempt);
  const ids = await ports.ids.unused(now);
  // One card attempt at a time per checkout: a concurrent post (a double click, another tab) waits (409).
  const lease = { id: randomUUID(), untilMs: now.getTime() + cardLeaseMs(ports.timeoutMs) };
  // The attempt recorded with its claim, in the upkeep's index, before the provider is asked (issue 44): an invocation
  // killed mid-call leaves it for the upkeep, which asks the provider and records or reopens it.
  const inFlight = { providerKey, brand: card.brand, last4: last4(card.number), installments: card.installments, holder: card.holder, at: now.toISOString() };
  await ports.commit([{ kind: 'checkout.card_claimed', checkout, lease, nowMs: now.getTime(), inFlight }]);
  // The attempt's slot (its lease id) in the card's, the merchant's and the checkout's logs, before the provider is asked:
  // a decline or a lost answer keeps it, an approval gives it back.
  const taken = await ports.slots
    .take(cardAttemptScopes(scope, ports.limits, { reference, perCheckout: ports.limits.perCheckout }), lease.id, now)
    .catch(async (err: unknown) => {
      await unclaim(ports, checkout, lease.id);
      throw err;
    });
  if (!taken.admitted) {
    await unclaim(ports, checkout, lease.id);
    const by = taken.refusedBy.kind;
    logger.warn(
      by === 'checkout' ? 'card attempt refused: the checkout took its declined attempts' : 'card attempt refused: declined too often within the hour',
      {
        checkout: reference,
        accountId,
        by,
      },
    );
    return by === 'checkout' ? { kind: 'checkout_locked' } : { kind: 'declines_locked', retryAfterSeconds: taken.retryAfterSeconds ?? 1 };
  }
  const authorization = await authorize(ports, checkout, card, providerKey, ids.reference);
  if (!authorization) {
    logger.warn('checkout card answer lost: checkout UNKNOWN until the provider tells', { checkout: reference });
    return { kind: 'lost', changes: [{ kind: 'checkout.card_lost', checkout, lost: inFlight }] };
  }
  if (authorization.outcome !== 'approved') {
    if (authorization.outcome !== 'declined') {
      // Not a decline: the slot is given back.
      await releaseQuietly(ports.slots, taken.ticket);
      return { kind: 'failed', changes: [{ kind: 'checkout.card_reopened', checkout, declined: false }] };
    }
    // Published once this answer's changes are committed (observe.ts holds a request's counts until then).
    countMetric(BUSINESS_METRICS.cardDeclines);
    // One line per decline, by merchant: the card-testing Contributor Insights rule counts them (infra/cdk/card-testing.ts).
    logger.info(CARD_DECLINED_MESSAGE, { accountId, checkout: reference });
    // The slot stays taken in the three logs; the checkout's count shows the form locked at its cap.
    return { kind: 'declined', changes: [{ kind: 'checkout.card_reopened', checkout, declined: true }] };
  }
  await releaseQuietly(ports.slots, taken.ticket);
  const summary = { brand: card.brand, last4: last4(card.number), installments: card.installments, holder: card.holder };
  const changes = checkoutCardPaymentChanges(checkout, ids, summary, authorization, { now, providerName: ports.provider.name, newEvent: ports.newEvent });
  // Published once the payment's changes are committed (observe.ts holds a request's counts until then).
  countMetric(BUSINESS_METRICS.chargesCreated, { method: 'card' });
  countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: 'card' });
  return {
    kind: 'paid',
    changes,
    // Not recorded (the checkout was paid meanwhile, or the commit failed): no charge without its invoice.
    compensate: () => voidCheckoutCardUnlessRecorded(ports, reference, ids.reference, authorization.transactionId),
  };
}
