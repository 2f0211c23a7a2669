import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/platform/logger';
import { firstMessages } from '../../shared/app/ledger/reconcile-run';
import { reconcileStore } from '../../shared/wiring/reconcile';
import { messageQueue } from '../../shared/wiring/queue';
import { getRuntime } from '../../shared/wiring/runtime';

/**
 * Runs daily (an EventBridge rule): starts the reconciliation by sending one message per partition of
 * the account index to the reconcile queue (functions/workers/reconcile-page.ts reconciles the pages).
 * Its work does not grow with the number of accounts: 16 messages, in two batches.
 */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<{ run: string; messages: number }> {
  startInvocation(context, { worker: 'reconcile' });
  try {
    const runtime = getRuntime();
    const queueUrl = runtime.config.reconcile.queueUrl;
    if (!queueUrl) throw new Error('RECONCILE_QUEUE_URL is not configured: the reconciliation cannot start');
    const run = runtime.clock.now().toISOString();
    const messages = firstMessages(reconcileStore(runtime), run);
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const refused = await messageQueue().sendBatch(queueUrl, batch);
      // A batch entry refused is an error: the run would miss a partition.
      if (refused.length > 0) throw new Error(`The reconcile queue refused ${refused.length} start messages`);
    }
    logger.info('reconciliation started', { run, messages: messages.length });
    return { run, messages: messages.length };
  } finally {
    endInvocation();
  }
}
