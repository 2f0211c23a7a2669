import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { isReconcileMessage, reconcilePage } from '../../shared/app/ledger/reconcile-run';
import { reconcileStore } from '../../shared/wiring/reconcile';
import { endInvocation, type InvocationContext, logger, startInvocation, withLogKeys } from '../../shared/platform/logger';
import { emfLine } from '../../shared/platform/metrics';
import { handleSqsBatch } from '../../shared/platform/queue-batch';
import { messageQueue } from '../../shared/wiring/queue';
import { reconcileWorker } from '../../shared/platform/queues';
import { getRuntime } from '../../shared/wiring/runtime';

/**
 * The reconcile queue's consumer: one page of accounts per message (RECONCILE_PAGE_SIZE): each
 * account's balance against the sum of its ledger entries; each difference logged ('ledger
 * difference'); the page's count of differing accounts published as LedgerDifferences (alarmed above
 * 0); then the next page's message, carrying the cursor, when the partition has more.
 */
export async function handler(event: SQSEvent, context?: InvocationContext): Promise<SQSBatchResponse> {
  startInvocation(context, { worker: 'reconcile' });
  try {
    const runtime = getRuntime();
    const { reconcile } = runtime.config;
    const store = reconcileStore(runtime);
    return await handleSqsBatch(
      event,
      async (record) => {
        const body: unknown = JSON.parse(record.body);
        if (!isReconcileMessage(store, body)) throw new Error('not a reconcile message');
        await withLogKeys({ messageId: record.messageId }, async () => {
          const outcome = await reconcilePage(store, body, reconcile.pageSize);
          const differences = outcome.results.filter((result) => !result.ok);
          for (const difference of differences) logger.error('ledger difference', { ...difference });
          process.stdout.write(`${emfLine(reconcileWorker.metric, differences.length, 'Count', runtime.clock.now())}\n`);
          if (outcome.next) {
            if (!reconcile.queueUrl) throw new Error('RECONCILE_QUEUE_URL is not configured: the next page cannot be sent');
            await messageQueue().sendScheduled(reconcile.queueUrl, outcome.next, runtime.clock.now());
          }
          logger.info('reconciliation page', {
            run: body.run,
            shard: body.shard,
            accounts: outcome.results.length,
            differences: differences.length,
            more: outcome.next !== undefined,
          });
        });
      },
      (messageId, error) => logger.error('reconcile page failed', { messageId, error: error instanceof Error ? error.message : 'unknown' }),
    );
  } finally {
    endInvocation();
  }
}
