import { brazilDate } from '../../domain/brazil-dates';
import { type BolePixRail, isBolePix, pastPaymentWindow, railsToClose } from '../../domain/bolepix';
import type { Invoice } from '../../domain/invoice';
import { logger } from '../../platform/logger';
import type { RailUpkeepIndex } from '../../ports/invoices';
import { withProviderTimeout } from '../time-limits';
import { applyNotification, type InvoiceMovePorts } from './apply-notification';

/** What closing a rail at its provider found: closed now or before, paid there already, or unknown to it. */
export type RailClosing = 'closed' | 'paid' | 'unknown';

export type RailPorts = InvoiceMovePorts & {
  /** Closes one rail of an invoice at its provider: the due-date Pix charge removed, the boleto written off. Idempotent. */
  closeRail: (invoice: Invoice, rail: BolePixRail) => Promise<RailClosing>;
  /**
   * Reads a BolePix's Pix half back from its PSP and applies what it holds (a payment whose callback
   * was lost), when its provider reads charges back; a no-op otherwise.
   */
  reconcilePixHalf: (invoice: Invoice, now: Date) => Promise<void>;
  timeoutMs: number;
};

export type RailUpkeepPorts = RailPorts & { index: RailUpkeepIndex; nowMs: () => number };

export type RailUpkeepOutcome = { checked: number; expired: number; closed: number; failed: number };

/** Invoices per partition and run (a run stops early when its time is spent). */
const PER_PARTITION = 50;

/** Whether the invoice records a payment on this rail: the one that paid it, or the second one held as a refund due. */
function railRecorded(invoice: Invoice, rail: BolePixRail): boolean {
  return invoice.paidRail === rail || invoice.otherRailPayment?.rail === rail;
}

/**
 * Closes at their providers the rails an invoice's state leaves open (issue 28): once PAID, the rail
 * that did not pay; once CANCELED, both. Every call is idempotent, so a retry (the next upkeep run)
 * repeats nothing harmful. Returns how many rails were closed, and the rails found paid at their
 * provider that the invoice records no payment for (a payment whose notification was lost: issue 43).
 */
export async function closeRails(ports: RailPorts, invoice: Invoice): Promise<{ closed: number; paidUnrecorded: BolePixRail[] }> {
  let closed = 0;
  const paidUnrecorded: BolePixRail[] = [];
  for (const rail of railsToClose(invoice)) {
    const found = await withProviderTimeout(ports.closeRail(invoice, rail), ports.timeoutMs);
    if (found === 'closed') closed += 1;
    else logger.warn('a rail could not be closed', { reference: invoice.reference, rail, found });
    if (found === 'paid' && !railRecorded(invoice, rail)) paidUnrecorded.push(rail);
  }
  return { closed, paidUnrecorded };
}

/**
 * A rail its provider holds paid with no payment recorded on the invoice: the Pix half is read back
 * from its PSP and its payment applied (the invoice's, or held apart as a refund due), as its lost
 * callback would have. Returns whether every such rail is recorded now; one that is not stays in the
 * upkeep's index (the next run looks again) and is logged as an error for the on-call engineer.
 */
async function recordPaidRails(ports: RailPorts, invoice: Invoice, rails: readonly BolePixRail[], now: Date): Promise<boolean> {
  if (rails.includes('pix')) await ports.reconcilePixHalf(invoice, now);
  const after = rails.length === 0 ? invoice : await ports.invoices.byReference(invoice.reference);
  const missing = rails.filter((rail) => !after || !railRecorded(after, rail));
  for (const rail of missing)
    logger.error('a payment the provider holds has no ledger entry: left in the rails upkeep', { reference: invoice.reference, rail });
  return missing.length === 0;
}

/**
 * One invoice of the index: a PENDING one past its payment window is canceled (its Pix half read back
 * first, so a payment whose callback was lost is credited instead), then every rail its state leaves
 * open is closed (a rail found paid with no payment recorded is read back and recorded first) and it
 * leaves the index, only if its status is still the one acted on (a move meanwhile puts it back in line).
 */
export async function keepRails(
  ports: RailPorts & { index: Pick<RailUpkeepIndex, 'retire'> },
  reference: string,
  now: Date,
): Promise<{ expired: boolean; closed: number }> {
  let invoice = await ports.invoices.byReference(reference);
  if (!invoice) return { expired: false, closed: 0 };
  let expired = false;
  if (invoice.status === 'PENDING') {
    // The index is eventually consistent, and a payment may have landed meanwhile: the invoice says.
    if (!pastPaymentWindow(invoice, brazilDate(now))) return { expired: false, closed: 0 };
    if (isBolePix(invoice)) await ports.reconcilePixHalf(invoice, now);
    expired = await applyNotification(ports, { id: `rails-expired:${reference}`, kind: 'canceled', target: { reference }, occurredAt: now }, now);
    invoice = await ports.invoices.byReference(reference);
    if (!invoice || invoice.status === 'PENDING') return { expired, closed: 0 };
  }
  const { closed, paidUnrecorded } = await closeRails(ports, invoice);
  if (await recordPaidRails(ports, invoice, paidUnrecorded, now)) await ports.index.retire(reference, invoice.status);
  return { expired, closed };
}

/**
 * One run of the rails upkeep (with the checkout upkeep's schedule): every invoice of the index due by
 * now, soonest first. A failure on one is counted and the run goes on (the next run tries it again).
 */
export async function railUpkeep(ports: RailUpkeepPorts, now: Date, budgetMs: number): Promise<RailUpkeepOutcome> {
  const outcome: RailUpkeepOutcome = { checked: 0, expired: 0, closed: 0, failed: 0 };
  const deadline = ports.nowMs() + budgetMs;
  for (const partition of ports.index.partitions) {
    for (const reference of await ports.index.due(partition, now.toISOString(), PER_PARTITION)) {
      if (ports.nowMs() > deadline) return outcome;
      outcome.checked += 1;
      try {
        const kept = await keepRails(ports, reference, now);
        if (kept.expired) outcome.expired += 1;
        outcome.closed += kept.closed;
      } catch (err) {
        outcome.failed += 1;
        logger.error('rails upkeep: an invoice could not be kept; the next run tries again', { reference, error: (err as Error).name });
      }
    }
  }
  return outcome;
}
