import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../logger';
import type { Runtime } from '../runtime';
import type { Item } from '../adapters/dynamo/dynamo';
import { invoiceByReference } from '../adapters/dynamo/invoice-lookup';
import { PIX_SWEEP_INDEX, pixSweepPartitions } from './pix-sweep-index';
import { reconcilePixInvoice, retireFromPixSweep } from './reconcile-pix';

export type PixSweepOutcome = { checked: number; applied: number; anomalies: number; retired: number; failed: number };

/** Charges looked up per partition and run, oldest first (a run stops early when its time is spent). */
const PER_PARTITION = 100;

/**
 * One run of the Pix sweep: the PENDING Pix charges of the index created before now −
 * APIPIX_SWEEP_AFTER_MINUTES, oldest first, each read back from its PSP and reconciled; one still
 * unpaid a day after its due date leaves the index. A failure on one charge is counted and the run
 * goes on (the next run tries it again). Stops starting new lookups after `budgetMs`.
 */
export async function pixSweep(runtime: Runtime, now: Date, budgetMs: number): Promise<PixSweepOutcome> {
  const outcome: PixSweepOutcome = { checked: 0, applied: 0, anomalies: 0, retired: 0, failed: 0 };
  const afterMinutes = runtime.config.apiPix?.sweepAfterMinutes ?? 30;
  const before = new Date(now.getTime() - afterMinutes * 60_000).toISOString();
  const deadline = Date.now() + budgetMs;
  for (const partition of pixSweepPartitions) {
    const page = await runtime.db.send(
      new QueryCommand({
        TableName: runtime.config.tableName,
        IndexName: PIX_SWEEP_INDEX,
        KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :before',
        ExpressionAttributeValues: { ':p': partition, ':before': before },
        Limit: PER_PARTITION,
      }),
    );
    for (const indexed of (page.Items ?? []) as Item[]) {
      if (Date.now() > deadline) return outcome;
      // The index is eventually consistent: the invoice itself says whether it is still pending.
      const item = await invoiceByReference(runtime, String(indexed.reference));
      if (!item || item.status !== 'PENDING') continue;
      outcome.checked += 1;
      try {
        const result = await reconcilePixInvoice(runtime, item, now);
        outcome.applied += result.applied.length;
        outcome.anomalies += result.anomalies.length;
        if (result.statusAfter === 'PENDING' && (await retireFromPixSweep(runtime, item, now))) outcome.retired += 1;
      } catch (err) {
        outcome.failed += 1;
        logger.error('Pix sweep: a charge could not be reconciled; the next run tries again', { reference: item.reference, error: (err as Error).name });
      }
    }
  }
  return outcome;
}
