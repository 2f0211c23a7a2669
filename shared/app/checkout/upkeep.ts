import { randomUUID } from 'node:crypto';
import type { Checkout } from '../../domain/checkout';
import { isAbandonDue } from '../../domain/checkout-transitions';
import { CardAttemptBusyError, CheckoutChangedError, CheckoutSettledError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import type { OpenCheckoutIndex } from '../../ports/checkouts';
import { withProviderTimeout } from '../time-limits';
import { type CardSettlePorts, settleCardAttempt, settleOpenCardAttempt } from '../charges/settle-card-attempt';
import { openCardAttemptStaleAfterMs, requestMayStillArrive } from '../../domain/time-budgets';
import { cardLeaseMs, checkoutCardPaymentChanges, voidCheckoutCardUnlessRecorded } from './checkout-payments';
import type { CheckoutCardPorts } from './pay-checkout-by-card';

export type UpkeepPorts = CheckoutCardPorts & {
  index: OpenCheckoutIndex;
  /** The API's card attempts whose answer was lost (issue 25). */
  cardAttempts: CardSettlePorts;
  ttlSeconds: number;
  /** The wall clock in ms, for the run's time budget. */
  nowMs: () => number;
};

/** `cleared`: card attempts of checkouts paid by another rail, settled (voided when approved). */
export type UpkeepOutcome = { abandoned: number; paid: number; reopened: number; cleared: number; waiting: number; failed: number };

/** Items read from one index partition per run: a bigger backlog is finished by the next runs. */
const PAGE = 100;

/**
 * Resolves one UNKNOWN checkout by asking the provider about its lost card attempt: approved → the
 * payment is recorded as the card form would have (invoice, credit, events, PAID); declined, or never
 * received once the grace has passed → PENDING again (next attempt); otherwise it waits for the next run.
 */
async function resolveUnknown(ports: UpkeepPorts, checkout: Checkout, now: Date): Promise<'paid' | 'reopened' | 'waiting'> {
  const lost = checkout.unknownAttempt;
  if (!lost) {
    await ports.commit([{ kind: 'checkout.card_reopened', checkout, declined: false }]);
    return 'reopened';
  }
  // The payer may be retrying this very attempt (same key) on the page: one of us at a time.
  const lease = { id: randomUUID(), untilMs: now.getTime() + cardLeaseMs(ports.timeoutMs) };
  await ports.commit([{ kind: 'checkout.card_claimed', checkout, lease, nowMs: now.getTime() }]);
  const status = await withProviderTimeout(ports.provider.cardAuthorizationStatus(lost.providerKey), ports.timeoutMs);
  if (status.outcome === 'approved') {
    const ids = await ports.ids.unused(now);
    const changes = checkoutCardPaymentChanges(checkout, ids, lost, status, { now, providerName: ports.provider.name, newEvent: ports.newEvent });
    try {
      await ports.commit(changes);
    } catch (err) {
      // Not recorded (paid meanwhile by a Pix, or a failed commit): this authorization must not stay charged, unless recorded after all.
      await voidCheckoutCardUnlessRecorded(ports, checkout.reference, ids.reference, status.transactionId);
      throw err;
    }
    logger.info('checkout card payment confirmed by the provider after a lost answer', { checkout: checkout.reference, invoice: ids.reference });
    return 'paid';
  }
  // A request the provider never received may still arrive within its own timeout: wait that long before reopening.
  if (status.outcome === 'not_found' && requestMayStillArrive(lost.at, now, ports.timeoutMs)) return 'waiting';
  await ports.commit([{ kind: 'checkout.card_reopened', checkout, declined: false }]);
  return 'reopened';
}

/**
 * A card attempt a checkout paid by another rail still holds (issue 44: in flight when the Pix paid it,
 * or its answer lost): approved at the provider → voided (the checkout is paid; this authorization is
 * recorded nowhere), then cleared; declined, or never received once the grace has passed → cleared;
 * otherwise it waits for the next run.
 */
async function settleStrayAttempt(ports: UpkeepPorts, checkout: Checkout, now: Date): Promise<'cleared' | 'waiting'> {
  const stray = checkout.unknownAttempt;
  if (!stray) return 'waiting';
  const status = await withProviderTimeout(ports.provider.cardAuthorizationStatus(stray.providerKey), ports.timeoutMs);
  if (status.outcome === 'not_found' && requestMayStillArrive(stray.at, now, ports.timeoutMs)) return 'waiting';
  if (status.outcome === 'approved') {
    await voidCheckoutCardUnlessRecorded(ports, checkout.reference, checkout.reference, status.transactionId);
    logger.warn('card authorization of a checkout paid by another rail voided', { checkout: checkout.reference });
  }
  await ports.commit([{ kind: 'checkout.card_attempt_cleared', reference: checkout.reference, providerKey: stray.providerKey }]);
  return 'cleared';
}

/** What the upkeep does with a checkout of its UNKNOWN partitions: a lost answer, an attempt left in flight, a paid checkout's stray attempt. */
function settleHeldAttempt(ports: UpkeepPorts, checkout: Checkout, now: Date): Promise<'paid' | 'reopened' | 'cleared' | 'waiting'> | undefined {
  if (checkout.status === 'UNKNOWN') return resolveUnknown(ports, checkout, now);
  // A card form's attempt whose invocation ended unanswered (killed mid-call): its claim's lease must have run out (else 409: skipped).
  if (checkout.status === 'PENDING' && checkout.unknownAttempt) return resolveUnknown(ports, checkout, now);
  if (checkout.status === 'PAID' && checkout.unknownAttempt) return settleStrayAttempt(ports, checkout, now);
  return undefined;
}

/**
 * The checkout upkeep (a scheduled function in AWS, a timer locally): resolves every UNKNOWN checkout,
 * every card form's attempt left in flight by a killed invocation and every card attempt a checkout
 * paid by Pix still holds (issue 44), and every UNKNOWN card charge of the API (issue 25), and every API card attempt left OPEN by an
 * invocation that ended unanswered (issue 44), with the provider, and abandons every PENDING
 * checkout older than CHECKOUT_TTL, for at most `budgetMs` (half the function's timeout): a backlog is
 * finished by the next runs. Each move is conditional on the status read, so a payment arriving
 * meanwhile wins and the run moves on.
 */
export async function checkoutUpkeep(ports: UpkeepPorts, now: Date, budgetMs = 60_000): Promise<UpkeepOutcome> {
  const outcome: UpkeepOutcome = { abandoned: 0, paid: 0, reopened: 0, cleared: 0, waiting: 0, failed: 0 };
  // Each UNKNOWN checkout may cost a provider call: past the budget the run stops and the next one goes on.
  const stopAt = ports.nowMs() + budgetMs;
  const settle = async (reference: string, act: (checkout: Checkout) => Promise<keyof UpkeepOutcome | undefined>) => {
    if (ports.nowMs() > stopAt) return;
    try {
      const checkout = await ports.checkouts.get(reference);
      const result = checkout ? await act(checkout) : undefined;
      if (result) outcome[result] += 1;
    } catch (err) {
      if (err instanceof CheckoutChangedError || err instanceof CheckoutSettledError || err instanceof CardAttemptBusyError) return;
      outcome.failed += 1;
      logger.error('checkout upkeep failed on one checkout', { checkout: reference, error: err instanceof Error ? err.message : 'unknown' });
    }
  };
  for (const partition of ports.index.unknownPartitions) {
    for (const reference of await ports.index.references(partition, PAGE)) {
      await settle(reference, async (checkout) => settleHeldAttempt(ports, checkout, now));
    }
  }
  // API card charges whose answer was lost (shared/adapters/dynamo/card-attempts.ts), and attempts left OPEN
  // by an invocation that ended without recording them (issue 44: killed mid-call): asked again, PAID or CANCELED.
  const attempts = ports.cardAttempts;
  const openedBefore = new Date(now.getTime() - openCardAttemptStaleAfterMs(attempts.timeoutMs));
  const kinds = [
    { what: 'card attempt', due: (partition: string) => attempts.attempts.unknownIn(partition), settleOne: settleCardAttempt },
    { what: 'open card attempt', due: (partition: string) => attempts.attempts.staleOpenIn(partition, openedBefore), settleOne: settleOpenCardAttempt },
  ];
  for (const kind of kinds) {
    for (const partition of attempts.attempts.unknownPartitions) {
      for (const attempt of await kind.due(partition)) {
        if (ports.nowMs() > stopAt) break;
        try {
          const settled = await kind.settleOne(attempts, attempt, now);
          if (settled === 'paid') outcome.paid += 1;
          else if (settled === 'not_charged') outcome.reopened += 1;
          else outcome.waiting += 1;
        } catch (err) {
          outcome.failed += 1;
          logger.error(`checkout upkeep failed on one ${kind.what}`, { reference: attempt.reference, error: err instanceof Error ? err.message : 'unknown' });
        }
      }
    }
  }
  const cutoff = new Date(now.getTime() - ports.ttlSeconds * 1000).toISOString();
  for (const partition of ports.index.openPartitions) {
    for (const reference of await ports.index.references(partition, PAGE, cutoff)) {
      await settle(reference, async (checkout) => {
        if (!isAbandonDue(checkout.status, Date.parse(checkout.createdAt), now.getTime(), ports.ttlSeconds)) return undefined;
        await ports.commit([{ kind: 'checkout.abandoned', reference, at: now.toISOString(), unlistInvoice: checkout.pixReference }]);
        return 'abandoned';
      });
    }
  }
  return outcome;
}
