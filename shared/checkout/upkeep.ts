import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { invoiceIds } from '../wiring/charges';
import { cardSettlePorts } from '../wiring/cards';
import { logger } from '../logger';
import { withProviderTimeout } from '../providers/port';
import { paymentProvider } from '../providers/registry';
import type { Runtime } from '../runtime';
import { SWEEP_INDEX } from '../events/sweep-index';
import type { Checkout } from '../domain/checkout';
import { commitWrites } from '../adapters/dynamo/transact';
import { checkoutByReference } from '../adapters/dynamo/checkout-lookup';
import { cardLeaseMs, checkoutCardPayment, voidCheckoutCardUnlessRecorded } from './payments';
import { openPartitions } from './record';
import { settleCardAttempt } from '../app/charges/settle-card-attempt';
import { cardAttemptSettledWrites, checkoutAbandonedWrites, claimCardAttemptWrite } from '../adapters/dynamo/checkout-settle';
import { CardAttemptBusyError, CheckoutChangedError, CheckoutSettledError } from '../errors';
import { isAbandonDue } from '../domain/checkout-transitions';

/** Items read from one index partition per run: a bigger backlog is finished by the next runs. */
const PAGE = 100;

async function indexed(runtime: Runtime, partition: string, before?: string): Promise<string[]> {
  const out = await runtime.db.send(
    new QueryCommand({
      TableName: runtime.config.tableName,
      IndexName: SWEEP_INDEX,
      KeyConditionExpression: before === undefined ? 'GSI2PK = :p' : 'GSI2PK = :p AND GSI2SK < :before',
      ExpressionAttributeValues: before === undefined ? { ':p': partition } : { ':p': partition, ':before': before },
      ProjectionExpression: 'PK',
      Limit: PAGE,
    }),
  );
  return (out.Items ?? []).map((item) => String(item.PK).replace(/^CHK#/, ''));
}

export type UpkeepOutcome = { abandoned: number; paid: number; reopened: number; waiting: number; failed: number };

/**
 * Resolves one UNKNOWN checkout by asking the provider about its lost card attempt: approved → the
 * payment is recorded as the card form would have (invoice, credit, events, PAID); declined, or never
 * received once the grace has passed → PENDING again (next attempt); otherwise it waits for the next run.
 */
async function resolveUnknown(runtime: Runtime, checkout: Checkout, now: Date): Promise<'paid' | 'reopened' | 'waiting'> {
  const lost = checkout.unknownAttempt;
  const table = runtime.config.tableName;
  if (!lost) {
    await commitWrites(runtime.db, cardAttemptSettledWrites(table, checkout));
    return 'reopened';
  }
  // The payer may be retrying this very attempt (same key) on the page: one of us at a time.
  const lease = { id: randomUUID(), untilMs: now.getTime() + cardLeaseMs(runtime.config.payments.timeoutMs) };
  await commitWrites(runtime.db, [claimCardAttemptWrite(table, checkout, lease, now.getTime())]);
  const status = await withProviderTimeout(paymentProvider(runtime.config).cardAuthorizationStatus(lost.providerKey), runtime.config.payments.timeoutMs);
  if (status.outcome === 'approved') {
    const ids = await invoiceIds(runtime).unused(now);
    const reference = ids.reference;
    const payment = await checkoutCardPayment(runtime, checkout, ids, lost, status, now, paymentProvider(runtime.config).name);
    try {
      await commitWrites(runtime.db, payment.writes);
    } catch (err) {
      // Not recorded (paid meanwhile by a Pix, or a failed commit): this authorization must not stay charged, unless recorded after all.
      await voidCheckoutCardUnlessRecorded(runtime, checkout.reference, reference, status.transactionId);
      throw err;
    }
    logger.info('checkout card payment confirmed by the provider after a lost answer', { checkout: checkout.reference, invoice: reference });
    return 'paid';
  }
  // A request the provider never received may still arrive within its own timeout: wait that long before reopening.
  const graceMs = 2 * runtime.config.payments.timeoutMs;
  if (status.outcome === 'not_found' && now.getTime() - Date.parse(lost.at) < graceMs) return 'waiting';
  await commitWrites(runtime.db, cardAttemptSettledWrites(table, checkout));
  return 'reopened';
}

/**
 * The checkout upkeep (a scheduled function in AWS, a timer locally): resolves every UNKNOWN checkout
 * and every UNKNOWN card charge of the API (issue 25) with the provider, and abandons every PENDING checkout older than CHECKOUT_TTL, for at most
 * `budgetMs` (half the function's timeout): a backlog is finished by the next runs. Each move is
 * conditional on the status read, so a payment arriving meanwhile wins and the run moves on.
 */
export async function checkoutUpkeep(runtime: Runtime, now: Date, budgetMs = 60_000): Promise<UpkeepOutcome> {
  const outcome: UpkeepOutcome = { abandoned: 0, paid: 0, reopened: 0, waiting: 0, failed: 0 };
  // Each UNKNOWN checkout may cost a provider call: past the budget the run stops and the next one goes on.
  const stopAt = Date.now() + budgetMs;
  const ttlSeconds = runtime.config.checkout.ttlSeconds;
  const settle = async (reference: string, act: (checkout: Checkout) => Promise<keyof UpkeepOutcome | undefined>) => {
    if (Date.now() > stopAt) return;
    try {
      const checkout = await checkoutByReference(runtime, reference);
      const result = checkout ? await act(checkout) : undefined;
      if (result) outcome[result] += 1;
    } catch (err) {
      if (err instanceof CheckoutChangedError || err instanceof CheckoutSettledError || err instanceof CardAttemptBusyError) return;
      outcome.failed += 1;
      logger.error('checkout upkeep failed on one checkout', { checkout: reference, error: err instanceof Error ? err.message : 'unknown' });
    }
  };
  for (const partition of openPartitions('unknown')) {
    for (const reference of await indexed(runtime, partition)) {
      await settle(reference, async (checkout) => (checkout.status === 'UNKNOWN' ? resolveUnknown(runtime, checkout, now) : undefined));
    }
  }
  // API card charges whose answer was lost (shared/adapters/dynamo/card-attempts.ts): asked again, PAID or CANCELED.
  const settlePorts = cardSettlePorts(runtime);
  for (const partition of settlePorts.attempts.unknownPartitions) {
    for (const attempt of await settlePorts.attempts.unknownIn(partition)) {
      if (Date.now() > stopAt) break;
      try {
        const settled = await settleCardAttempt(settlePorts, attempt, now);
        if (settled === 'paid') outcome.paid += 1;
        else if (settled === 'not_charged') outcome.reopened += 1;
        else outcome.waiting += 1;
      } catch (err) {
        outcome.failed += 1;
        logger.error('checkout upkeep failed on one card attempt', { reference: attempt.reference, error: err instanceof Error ? err.message : 'unknown' });
      }
    }
  }
  const cutoff = new Date(now.getTime() - ttlSeconds * 1000).toISOString();
  for (const partition of openPartitions('open')) {
    for (const reference of await indexed(runtime, partition, cutoff)) {
      await settle(reference, async (checkout) => {
        if (!isAbandonDue(checkout.status, Date.parse(checkout.createdAt), now.getTime(), ttlSeconds)) return undefined;
        const abandoned = { kind: 'checkout.abandoned', reference, at: now.toISOString(), unlistInvoice: checkout.pixReference } as const;
        await commitWrites(runtime.db, checkoutAbandonedWrites(runtime.config.tableName, abandoned));
        return 'abandoned';
      });
    }
  }
  return outcome;
}
