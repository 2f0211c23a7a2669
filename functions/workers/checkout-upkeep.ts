import { checkoutUpkeep, type UpkeepOutcome } from '../../shared/app/checkout/upkeep';
import { upkeepPorts } from '../../shared/wiring/checkout';
import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/logger';
import { BUSINESS_METRICS, countMetric, flushMetrics } from '../../shared/metrics/emf';
import { checkoutUpkeepWorker } from '../../shared/queues';
import { getRuntime } from '../../shared/runtime';

/**
 * Runs on a schedule (an EventBridge rule in AWS, a timer in the local stack): abandons checkouts not
 * paid within CHECKOUT_TTL and settles UNKNOWN ones with the provider. A run that failed on some
 * checkout throws, so the failure shows in the function's errors; the next run tries again.
 */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<UpkeepOutcome> {
  startInvocation(context, { worker: 'checkout-upkeep' });
  try {
    return await upkeep();
  } finally {
    flushMetrics();
    endInvocation();
  }
}

async function upkeep(): Promise<UpkeepOutcome> {
  const runtime = getRuntime();
  const outcome = await checkoutUpkeep(upkeepPorts(runtime, checkoutUpkeepWorker), runtime.clock.now(), (checkoutUpkeepWorker.timeoutSeconds * 1000) / 2);
  // Card payments the provider confirmed after a lost answer (each counted once its writes committed).
  countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: 'card', value: outcome.paid });
  if (outcome.abandoned + outcome.paid + outcome.reopened + outcome.failed > 0) logger.info('checkout upkeep', outcome);
  if (outcome.failed > 0) throw new Error(`${outcome.failed} checkouts could not be settled; the next run tries again`);
  return outcome;
}
