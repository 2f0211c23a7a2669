import type { Invoice } from '../../domain/invoice';
import { logger } from '../../platform/logger';
import type { PixSweepIndex } from '../../ports/invoices';
import type { PixStatementCursors } from '../../ports/pix-statement';
import type { LookingUpPixProvider, StatementProvider } from '../../ports/payment-provider';
import { noneChecked, type StatementCheck, statementPass } from './pix-statement';
import { type PixLookupPorts, reconcilePixInvoice, sweepGivesUp } from './reconcile-pix-invoice';

/** The PENDING charges read back, and the statement's Pix checked against the ledger (`statement`). */
export type PixSweepOutcome = { checked: number; applied: number; anomalies: number; retired: number; failed: number; statement: StatementCheck };

export type PixSweepPorts = PixLookupPorts & {
  index: PixSweepIndex;
  /** The invoice's PSP, which reads charges back (else NoLookupError: counted as a failure). */
  providerOf: (invoice: Invoice) => LookingUpPixProvider;
  /** Minutes a charge waits for its callback before the sweep reads it back. */
  afterMinutes: number;
  /** The wall clock in ms, for the run's time budget. */
  nowMs: () => number;
  /** The configured PSP's statement of Pix received and the sweep's cursor in it, when the PSP lists what it received. */
  statement?: { provider: StatementProvider; cursors: PixStatementCursors };
};

/** Charges looked up per partition and run, oldest first (a run stops early when its time is spent). */
const PER_PARTITION = 100;

/**
 * One run of the Pix sweep: first the PSP's statement of Pix received, read on from its cursor up to
 * now − APIPIX_SWEEP_AFTER_MINUTES, each Pix checked against the ledger and recorded when it is not
 * (./pix-statement.ts); then the PENDING Pix charges of the index created before now −
 * APIPIX_SWEEP_AFTER_MINUTES, oldest first, each read back from its PSP and reconciled; one still
 * unpaid a day after its due date leaves the index. A failure on one charge is counted and the run
 * goes on (the next run tries it again). Stops starting new lookups after `budgetMs`.
 */
export async function pixSweep(ports: PixSweepPorts, now: Date, budgetMs: number): Promise<PixSweepOutcome> {
  const outcome: PixSweepOutcome = { checked: 0, applied: 0, anomalies: 0, retired: 0, failed: 0, statement: noneChecked() };
  const until = new Date(now.getTime() - ports.afterMinutes * 60_000);
  const before = until.toISOString();
  const start = ports.nowMs();
  const deadline = start + budgetMs;
  if (ports.statement) {
    // The statement first, with half the budget: the charges' read-backs below may take the rest.
    const statementDeadline = start + budgetMs / 2;
    const { provider, cursors } = ports.statement;
    try {
      outcome.statement = await statementPass({ ...ports, cursors }, provider, until, now, () => ports.nowMs() <= statementDeadline);
    } catch (err) {
      outcome.failed += 1;
      logger.error("Pix sweep: the PSP's statement could not be checked; the next run reads on from the same page", { error: (err as Error).name });
    }
  }
  for (const partition of ports.index.partitions) {
    for (const reference of await ports.index.due(partition, before, PER_PARTITION)) {
      if (ports.nowMs() > deadline) return outcome;
      // The index is eventually consistent: the invoice itself says whether it is still pending.
      const invoice = await ports.invoices.byReference(reference);
      if (invoice?.status !== 'PENDING') continue;
      outcome.checked += 1;
      try {
        const result = await reconcilePixInvoice(ports, invoice, ports.providerOf(invoice), now);
        outcome.applied += result.applied.length;
        outcome.anomalies += result.anomalies.length;
        if (result.statusAfter === 'PENDING' && sweepGivesUp(invoice, now) && (await ports.index.retire(reference))) {
          logger.warn('Pix charge no longer swept: unpaid a day after its due date', { reference });
          outcome.retired += 1;
        }
      } catch (err) {
        outcome.failed += 1;
        logger.error('Pix sweep: a charge could not be reconciled; the next run tries again', { reference, error: (err as Error).name });
      }
    }
  }
  return outcome;
}
