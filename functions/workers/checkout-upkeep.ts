import { checkoutUpkeep, type UpkeepOutcome } from '../../shared/checkout/upkeep';
import { logger } from '../../shared/logger';
import { checkoutUpkeepWorker } from '../../shared/queues';
import { getRuntime } from '../../shared/runtime';

/**
 * Runs on a schedule (an EventBridge rule in AWS, a timer in the local stack): abandons checkouts not
 * paid within CHECKOUT_TTL and settles UNKNOWN ones with the provider. A run that failed on some
 * checkout throws, so the failure shows in the function's errors; the next run tries again.
 */
export async function handler(): Promise<UpkeepOutcome> {
  const runtime = getRuntime();
  const outcome = await checkoutUpkeep(runtime, runtime.clock.now(), (checkoutUpkeepWorker.timeoutSeconds * 1000) / 2);
  if (outcome.abandoned + outcome.paid + outcome.reopened + outcome.failed > 0) logger.info('checkout upkeep', outcome);
  if (outcome.failed > 0) throw new Error(`${outcome.failed} checkouts could not be settled; the next run tries again`);
  return outcome;
}
