import { checkoutUpkeep, type UpkeepOutcome } from '../../shared/app/checkout/upkeep';
import { upkeepPorts } from '../../shared/wiring/checkout';
import { railUpkeep, type RailUpkeepOutcome } from '../../shared/app/invoices/rail-upkeep';
import { railUpkeepPorts } from '../../shared/wiring/rails';
import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/platform/logger';
import { BUSINESS_METRICS, countMetric, flushMetrics } from '../../shared/platform/metrics';
import { checkoutUpkeepWorker } from '../../shared/platform/queues';
import { getRuntime } from '../../shared/wiring/runtime';

/**
 * Runs on a schedule (an EventBridge rule in AWS, a timer in the local stack): abandons checkouts not
 * paid within CHECKOUT_TTL and settles UNKNOWN ones with the provider; then keeps the boletos' rails
 * (shared/app/invoices/rail-upkeep.ts: expires BolePix past their window, closes the rails a payment or
 * a cancellation left open). A run that failed on some checkout or invoice throws, so the failure shows
 * in the function's errors; the next run tries again.
 */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<UpkeepOutcome & { rails: RailUpkeepOutcome }> {
  startInvocation(context, { worker: 'checkout-upkeep' });
  try {
    return await upkeep();
  } finally {
    flushMetrics();
    endInvocation();
  }
}

async function upkeep(): Promise<UpkeepOutcome & { rails: RailUpkeepOutcome }> {
  const runtime = getRuntime();
  const budgetMs = checkoutUpkeepWorker.timeoutSeconds * 1000;
  const outcome = await checkoutUpkeep(upkeepPorts(runtime, checkoutUpkeepWorker), runtime.clock.now(), budgetMs / 2);
  // Card payments the provider confirmed after a lost answer (each counted once its writes committed).
  countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: 'card', value: outcome.paid });
  if (outcome.abandoned + outcome.paid + outcome.reopened + outcome.failed > 0) logger.info('checkout upkeep', outcome);
  const rails = await railUpkeep(railUpkeepPorts(runtime, checkoutUpkeepWorker), runtime.clock.now(), budgetMs / 4);
  if (rails.checked > 0) logger.info('rails upkeep', rails);
  if (outcome.failed > 0) throw new Error(`${outcome.failed} checkouts could not be settled; the next run tries again`);
  if (rails.failed > 0) throw new Error(`${rails.failed} invoices' rails could not be kept; the next run tries again`);
  return { ...outcome, rails };
}
