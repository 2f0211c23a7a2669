import { allAccountIds, reconcileAccount } from '../../shared/ledger/reconcile';
import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/logger';
import { emfLine } from '../../shared/metrics/emf';
import { reconcileWorker } from '../../shared/queues';
import { getRuntime } from '../../shared/runtime';

/**
 * Runs daily (an EventBridge rule): reconciles every account (balance = sum of its ledger entries),
 * logs each difference, and publishes the count of accounts that differ as a CloudWatch metric
 * (embedded metric format); an alarm fires on any.
 */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<{ accounts: number; differences: number }> {
  startInvocation(context, { worker: 'reconcile' });
  try {
    return await reconcile();
  } finally {
    endInvocation();
  }
}

async function reconcile(): Promise<{ accounts: number; differences: number }> {
  const runtime = getRuntime();
  const { db, config } = runtime;
  let differences = 0;
  const ids = await allAccountIds(db, config.tableName);
  for (const accountId of ids) {
    const result = await reconcileAccount(db, config.tableName, accountId);
    if (!result.ok) {
      differences += 1;
      logger.error('ledger difference', { ...result });
    }
  }
  process.stdout.write(`${emfLine(reconcileWorker.metric, differences, 'Count', runtime.clock.now())}\n`);
  logger.info('reconciliation', { accounts: ids.length, differences });
  return { accounts: ids.length, differences };
}
