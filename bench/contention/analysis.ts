import { cancellationReasons, isTransientWriteError } from '../../shared/adapters/dynamo/contention';
import { percentile, round } from '../stats';
import type { ContentionMode, ExactlyOnce, Outcome, RunSummary, WriteAttempts } from './types';

/** The account (0 … accounts−1) whose invoice the notification of `index` confirms: round-robin. */
export function accountOf(index: number, accounts: number): number {
  if (!Number.isInteger(accounts) || accounts < 1) throw new Error('accounts must be a positive whole number');
  return index % accounts;
}

export function emptyAttempts(): WriteAttempts {
  return { transactions: 0, transient: 0, byReason: {}, otherFailures: {} };
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { name?: unknown }).name === 'string' ? (err as { name: string }).name : 'Error';
}

/**
 * Adds one write attempt to the tally: `failure` is the error it met, or undefined when it succeeded.
 * A transient failure (the storage layer's own rule, `isTransientWriteError`) is counted under its
 * cancellation reasons (a transaction) or its error name; any other failure under its error name.
 */
export function tallyAttempt(attempts: WriteAttempts, operation: string, failure?: unknown): void {
  if (operation === 'TransactWriteItems') attempts.transactions += 1;
  if (failure === undefined) return;
  if (!isTransientWriteError(failure)) {
    bump(attempts.otherFailures, errorName(failure));
    return;
  }
  attempts.transient += 1;
  const reasons = cancellationReasons(failure);
  const codes = (reasons ?? []).map((reason) => reason.Code ?? 'None').filter((code) => code !== 'None');
  for (const code of reasons ? [...new Set(codes)] : [errorName(failure)]) bump(attempts.byReason, code);
}

/** The most tasks of one key in flight at once, from the keys' start and end events in order. */
export function maxInFlightPerKey(events: ReadonlyArray<{ key: number; start: boolean }>): number {
  const inFlight = new Map<number, number>();
  let max = 0;
  for (const { key, start } of events) {
    const now = (inFlight.get(key) ?? 0) + (start ? 1 : -1);
    inFlight.set(key, now);
    max = Math.max(max, now);
  }
  return max;
}

/** What the exactly-once check compares, gathered after a run. */
export type ExactlyOnceFacts = Omit<ExactlyOnce, 'pass' | 'problems'> & {
  /** Answers other than 200 left in the run after the redeliveries (each must have applied on redelivery). */
  unansweredAfterRedelivery: number;
};

/**
 * Exactly once: right after the run the balances equal the sum of the confirmed invoices and the PAID
 * invoices are those confirmed; after the failed notifications are delivered again, every invoice is
 * credited once (balances = every invoice's total) and no duplicate applies.
 */
export function checkExactlyOnce(facts: ExactlyOnceFacts): ExactlyOnce {
  const { unansweredAfterRedelivery, ...kept } = facts;
  const problems: string[] = [];
  if (facts.balanceCents !== facts.confirmedCents)
    problems.push(`balance ${facts.balanceCents} cents after the run, confirmed invoices sum to ${facts.confirmedCents}`);
  if (facts.paidInvoices !== facts.applied) problems.push(`${facts.paidInvoices} invoices PAID, ${facts.applied} notifications applied`);
  if (facts.redeliveredApplied !== facts.redelivered || unansweredAfterRedelivery > 0)
    problems.push(`${facts.redelivered - facts.redeliveredApplied} redelivered notifications did not apply (${unansweredAfterRedelivery} still unanswered)`);
  if (facts.duplicatesApplied > 0) problems.push(`${facts.duplicatesApplied} duplicate notifications applied again`);
  if (facts.finalBalanceCents !== facts.allInvoicesCents)
    problems.push(`balance ${facts.finalBalanceCents} cents after redelivery, the run's invoices sum to ${facts.allInvoicesCents}`);
  return { ...kept, pass: problems.length === 0, problems };
}

export type RunFacts = {
  mode: ContentionMode;
  concurrency: number;
  accounts: number;
  outcomes: readonly Outcome[];
  wallMs: number;
  writes: WriteAttempts;
  maxInFlightPerAccount: number;
  exactlyOnce: ExactlyOnce;
};

/** One run's figures: confirmations per second over its wall time, the answers by status, the conflict rates, p50/p99. */
export function summarizeRun(facts: RunFacts): RunSummary {
  const { outcomes, writes } = facts;
  const statuses: Record<string, number> = {};
  for (const outcome of outcomes) bump(statuses, String(outcome.status));
  const confirmed = outcomes.filter((outcome) => outcome.status === 200 && outcome.applied).length;
  const latencies = outcomes.map((outcome) => outcome.ms);
  const n = outcomes.length;
  return {
    mode: facts.mode,
    concurrency: facts.concurrency,
    notifications: n,
    accounts: facts.accounts,
    maxInFlightPerAccount: facts.maxInFlightPerAccount,
    wallMs: round(facts.wallMs),
    confirmationsPerSecond: facts.wallMs > 0 ? round((confirmed * 1000) / facts.wallMs, 1) : Number.NaN,
    statuses,
    rate503: n > 0 ? round((statuses['503'] ?? 0) / n, 4) : 0,
    writes,
    conflictRate: writes.transactions > 0 ? round(writes.transient / writes.transactions, 4) : 0,
    latencyMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(Math.max(...latencies, 0)) },
    exactlyOnce: facts.exactlyOnce,
  };
}

/** Whether a run's answers are all 200 or 503 (503 = contention, nothing written; anything else is a fault). */
export function onlyExpectedStatuses(statuses: Readonly<Record<string, number>>): boolean {
  return Object.keys(statuses).every((status) => status === '200' || status === '503');
}
