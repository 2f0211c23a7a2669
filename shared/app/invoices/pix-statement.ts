import { type Invoice, pixProviderOf } from '../../domain/invoice';
import {
  emptyWindow,
  nextCursor,
  type ReceivedPix,
  recordedPixCents,
  recordsPixPayment,
  startingCursor,
  type StatementWindow,
} from '../../domain/pix-statement';
import { UnprocessableError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
import type { PixStatementCursors } from '../../ports/pix-statement';
import type { PixProvider, StatementProvider } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';
import { type PixLookupPorts, reconcilePixInvoice } from './reconcile-pix-invoice';

/**
 * The PSP's statement of Pix received checked against the ledger (issue 43): a payment the provider holds
 * whose charge records none (its callback lost, the sweep's index left, a BolePix's second rail paid in
 * a race) is read back and recorded as its callback would have recorded it.
 */

/**
 * What a check found, per Pix received: `recorded` (its charge records it: in the ledger), `recovered`
 * (it was not, and is now), `unmatched` (it paid no charge of the gateway's: no txid, or one no invoice
 * has; logged as an error and counted in PixAnomalies), `missing` (its charge still records no payment
 * after the read-back, e.g. another amount than the one due: an error, counted in PixAnomalies).
 */
export type StatementCheck = { checked: number; recorded: number; recovered: number; unmatched: number; missing: number };

type Verdict = Exclude<keyof StatementCheck, 'checked'>;

export const noneChecked = (): StatementCheck => ({ checked: 0, recorded: 0, recovered: 0, unmatched: 0, missing: 0 });

/** The invoice, when this provider created its Pix charge (an invoice older than recorded providers is the configured one's). */
function chargeOf(invoice: Invoice | undefined, provider: PixProvider): Invoice | undefined {
  return invoice && pixProviderOf(invoice, provider.name) === provider.name ? invoice : undefined;
}

async function checkPix(ports: PixLookupPorts, provider: StatementProvider, pix: ReceivedPix, now: Date): Promise<Verdict> {
  const context = { provider: provider.name, endToEndId: pix.endToEndId, amountCents: pix.amountCents, paidAt: pix.paidAt.toISOString() };
  const invoice = chargeOf(pix.txid ? await ports.invoices.byTxid(pix.txid) : undefined, provider);
  if (!invoice) {
    logger.error('a Pix the PSP received paid no charge of the gateway: not credited (return it to the payer)', { ...context, txid: pix.txid ?? null });
    countMetric(BUSINESS_METRICS.pixAnomalies);
    return 'unmatched';
  }
  if (recordsPixPayment(invoice)) {
    // A charge takes one Pix: another amount than the one recorded is a second payment, recorded nowhere.
    const recorded = recordedPixCents(invoice);
    if (recorded === undefined || recorded === pix.amountCents) return 'recorded';
    logger.error('a Pix the PSP received is not the payment its charge records: not credited', {
      ...context,
      reference: invoice.reference,
      recordedCents: recorded,
    });
    countMetric(BUSINESS_METRICS.pixAnomalies);
    return 'missing';
  }
  try {
    await reconcilePixInvoice(ports, invoice, provider, now);
  } catch (err) {
    // A payment the rules refuse (dated before its charge) stays refused, whatever the next run: counted, not retried forever.
    if (!(err instanceof UnprocessableError)) throw err;
  }
  const after = await ports.invoices.byReference(invoice.reference);
  if (after && recordsPixPayment(after)) {
    logger.warn('a Pix the PSP received had no ledger entry: recorded now', { ...context, reference: invoice.reference });
    return 'recovered';
  }
  logger.error('a Pix the PSP received has no ledger entry', { ...context, reference: invoice.reference, status: after?.status ?? null });
  countMetric(BUSINESS_METRICS.pixAnomalies);
  return 'missing';
}

/** Checks one page's Pix, in order; a failure (the PSP, the table) stops the page (the caller reads it again). */
async function checkPage(
  ports: PixLookupPorts,
  provider: StatementProvider,
  payments: readonly ReceivedPix[],
  now: Date,
  tally: StatementCheck,
): Promise<void> {
  for (const pix of payments) {
    const verdict = await checkPix(ports, provider, pix, now);
    tally.checked += 1;
    tally[verdict] += 1;
  }
}

/**
 * `provider reconcile --from --to`: every page of the window's statement checked against the ledger.
 * Read-backs and records are idempotent: a window read twice records nothing twice.
 */
export async function reconcileStatement(
  ports: PixLookupPorts,
  provider: StatementProvider,
  window: StatementWindow,
  now: Date,
): Promise<StatementCheck & { pages: number }> {
  const tally = noneChecked();
  let pages = 1;
  for (let page = 0; page < pages; page += 1) {
    const received = await withProviderTimeout(provider.receivedPix(window, page), ports.timeoutMs);
    pages = received.pages;
    await checkPage(ports, provider, received.payments, now, tally);
  }
  return { ...tally, pages };
}

/**
 * The Pix sweep's part: reads the statement on from where the last run stopped (the provider's cursor),
 * page after page, up to `until` (now less the callbacks' wait), while `timeLeft` says so. The cursor
 * moves past a page only once each of its Pix is checked, by a conditional write on the cursor read:
 * a run that fails or runs out of time leaves the page to the next run (checked at least once; a
 * second check records nothing), and a run that finds the cursor moved by another stops.
 */
export async function statementPass(
  ports: PixLookupPorts & { cursors: PixStatementCursors },
  provider: StatementProvider,
  until: Date,
  now: Date,
  timeLeft: () => boolean,
): Promise<StatementCheck> {
  const tally = noneChecked();
  let stored = await ports.cursors.read(provider.name);
  let cursor = startingCursor(stored, until);
  while (!emptyWindow(cursor) && timeLeft()) {
    const received = await withProviderTimeout(provider.receivedPix({ from: new Date(cursor.from), to: new Date(cursor.to) }, cursor.page), ports.timeoutMs);
    await checkPage(ports, provider, received.payments, now, tally);
    const next = nextCursor(cursor, received.pages, until);
    if (!(await ports.cursors.advance(provider.name, stored, next.cursor))) break;
    stored = next.cursor;
    cursor = next.cursor;
    if (next.done) break;
  }
  return tally;
}
