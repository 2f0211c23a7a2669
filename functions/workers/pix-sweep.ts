import { pixSweep, type PixSweepOutcome } from '../../shared/app/invoices/pix-sweep';
import { pixSweepPorts } from '../../shared/wiring/invoices';
import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { pixSweepWorker } from '../../shared/platform/queues';
import { getRuntime } from '../../shared/wiring/runtime';

/**
 * Runs on a schedule (an EventBridge rule, deployed with an API Pix PSP): reads back the PENDING Pix
 * charges whose callback never came (shared/app/invoices/pix-sweep.ts). A run with failures throws, so
 * they show in the function's errors (alarmed); the next run tries them again.
 */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<PixSweepOutcome> {
  startInvocation(context, { worker: 'pix-sweep' });
  try {
    const runtime = getRuntime();
    const outcome = await pixSweep(pixSweepPorts(runtime, pixSweepWorker), runtime.clock.now(), (pixSweepWorker.timeoutSeconds * 1000) / 2);
    if (outcome.checked + outcome.failed > 0) logger.info('Pix sweep', outcome);
    if (outcome.failed > 0) throw new Error(`${outcome.failed} Pix charges could not be reconciled; the next run tries again`);
    return outcome;
  } finally {
    flushMetrics();
    endInvocation();
  }
}
