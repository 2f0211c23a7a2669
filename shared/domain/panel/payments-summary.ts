import type { LedgerEntry } from '../ledger';
import type { ChargeMethod } from '../payment-methods';

/** At most this many payment entries of the month are read for the overview (the statement's CSV bound). */
export const OVERVIEW_PAYMENTS_READ = 5_000;

/** What the overview sums per method: a payment entry's method, or `other` for entries recorded before entries named one. */
export type SummaryMethod = ChargeMethod | 'other';

export type MethodTotals = { count: number; cents: number };

export type PaymentsSummary = {
  today: Partial<Record<SummaryMethod, MethodTotals>>;
  month: Partial<Record<SummaryMethod, MethodTotals>>;
  /** False when the month had more payments than were read: its sums are then the newest OVERVIEW_PAYMENTS_READ only. */
  monthComplete: boolean;
  /** False when even today's payments were more than were read. */
  todayComplete: boolean;
};

function add(totals: Partial<Record<SummaryMethod, MethodTotals>>, method: SummaryMethod, cents: number): void {
  const current = totals[method] ?? { count: 0, cents: 0 };
  totals[method] = { count: current.count + 1, cents: current.cents + cents };
}

/**
 * Today's and this month's payments per method, from the month's payment entries newest first (at most
 * `read` of them: more means the sums are of the newest only, and say so). `todayStartMs`: the start of
 * today in Brasília. Whole cents, summed as integers.
 */
export function summarizePayments(entries: readonly LedgerEntry[], todayStartMs: number, read = OVERVIEW_PAYMENTS_READ): PaymentsSummary {
  const counted = entries.slice(0, read);
  const summary: PaymentsSummary = { today: {}, month: {}, monthComplete: entries.length <= read, todayComplete: true };
  for (const entry of counted) {
    if (entry.type !== 'payment') continue;
    const method: SummaryMethod = entry.method ?? 'other';
    // A payment held for its payer's refund (a BolePix paid twice) arrived on the reserved balance: it counts as received.
    const cents = entry.availableCents + entry.reservedCents;
    add(summary.month, method, cents);
    if (Date.parse(entry.createdAt) >= todayStartMs) add(summary.today, method, cents);
  }
  // Newest first: today's are all read unless the last one read is still today's and more were left.
  const last = counted[counted.length - 1];
  if (!summary.monthComplete && last !== undefined && Date.parse(last.createdAt) >= todayStartMs) summary.todayComplete = false;
  return summary;
}
