import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Runtime } from '../../shared/wiring/runtime';
import { getDb } from '../../shared/adapters/dynamo/dynamo';
import { providerNotificationSecret } from '../../shared/adapters/secrets/provider-credentials';
import { json, notifyPixPaid } from '../payment-scenarios';
import type { Reply } from '../routes';
import { accountFactory } from '../scenarios';
import { round } from '../stats';
import { checkExactlyOnce, emptyAttempts, maxInFlightPerKey, onlyExpectedStatuses, summarizeRun } from './analysis';
import { attachWriteAttemptCounter, countWritesInto } from './conflicts';
import { balancesCents, paidCount, type PendingInvoice, prepareRun, type RunFixture } from './fixtures';
import { runPool } from './pool';
import type { ContentionMode, ContentionReport, ExactlyOnce, Outcome, RunSummary } from './types';

/**
 * The contention section (issue 13, "The per-account ceiling"): payment confirmations per second for
 * ONE account at each concurrency level, beside the same number of notifications spread over 100
 * accounts. Each notification is the simulated provider's signed `pix.paid` of its own PENDING Pix
 * charge (made beforehand through the real creation route), sent to the real notification handler
 * in-process by a closed-loop pool of `concurrency` callers. Each run gets fresh accounts, so after it
 * the balances must equal the sum of the invoices its notifications confirmed.
 */
export const CONTENTION_LEVELS = [1, 10, 50, 100] as const;
export const SPREAD_ACCOUNTS = 100;
const WARMUP = 10;
/** How often a notification answered 503 is delivered again after the run (a provider redelivers). */
const REDELIVERY_ATTEMPTS = 5;
/** Applied notifications delivered again after the run (fresh notification id, same charge): none may apply. */
const DUPLICATES = 10;

export type ContentionOptions = {
  notifications: number;
  levels?: readonly number[];
  progress: (line: string) => void;
  environment: ContentionReport['environment'];
};

function outcomeOf(invoice: number, reply: Reply, ms: number): Outcome {
  if (reply.status !== 200) {
    let code: string | undefined;
    try {
      code = json<{ code?: string }>(reply).code;
    } catch {
      code = undefined;
    }
    return { invoice, status: reply.status, applied: false, ms, ...(code ? { code } : {}) };
  }
  return { invoice, status: 200, applied: json<{ applied?: boolean }>(reply).applied === true, ms };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Delivers again, not timed, what did not answer 200; then duplicates of applied ones; then reads the balances again. */
async function afterRun(
  runtime: Runtime,
  fixture: RunFixture,
  outcomes: readonly Outcome[],
  secret: string,
  balanceCents: number,
  paidInvoices: number,
): Promise<ExactlyOnce> {
  const invoiceOf = (outcome: Outcome): PendingInvoice => {
    const invoice = fixture.invoices[outcome.invoice];
    if (!invoice) throw new Error('contention: an outcome without its invoice');
    return invoice;
  };
  const applied = outcomes.filter((outcome) => outcome.applied);
  const failed = outcomes.filter((outcome) => outcome.status !== 200);
  let redeliveredApplied = 0;
  let unanswered = 0;
  for (const outcome of failed) {
    let reply: Reply | undefined;
    for (let attempt = 0; attempt < REDELIVERY_ATTEMPTS && reply?.status !== 200; attempt += 1) reply = await notifyPixPaid(invoiceOf(outcome).txid, secret);
    if (reply?.status !== 200) unanswered += 1;
    else if (json<{ applied?: boolean }>(reply).applied === true) redeliveredApplied += 1;
  }
  let duplicatesApplied = 0;
  const duplicates = applied.slice(0, DUPLICATES);
  for (const outcome of duplicates) {
    const reply = await notifyPixPaid(invoiceOf(outcome).txid, secret);
    if (reply.status === 200 && json<{ applied?: boolean }>(reply).applied === true) duplicatesApplied += 1;
  }
  return checkExactlyOnce({
    confirmedCents: sum(applied.map((outcome) => invoiceOf(outcome).totalCents)),
    balanceCents,
    paidInvoices,
    applied: applied.length,
    redelivered: failed.length,
    redeliveredApplied,
    duplicates: duplicates.length,
    duplicatesApplied,
    finalBalanceCents: sum(await balancesCents(fixture.accounts)),
    allInvoicesCents: sum(fixture.invoices.map((invoice) => invoice.totalCents)),
    unansweredAfterRedelivery: unanswered,
  });
}

/** One measured run: every notification of the fixture through a pool of `concurrency` callers, then the exactly-once check. */
async function measureRun(runtime: Runtime, mode: ContentionMode, concurrency: number, fixture: RunFixture, secret: string): Promise<RunSummary> {
  const { invoices } = fixture;
  const outcomes: Outcome[] = new Array<Outcome>(invoices.length);
  const events: Array<{ key: number; start: boolean }> = [];
  const writes = emptyAttempts();
  const started = performance.now();
  await countWritesInto(writes, () =>
    runPool(invoices.length, concurrency, async (i) => {
      const invoice = invoices[i];
      if (!invoice) throw new Error('contention: missing invoice');
      events.push({ key: invoice.account, start: true });
      const sent = performance.now();
      const reply = await notifyPixPaid(invoice.txid, secret);
      outcomes[i] = outcomeOf(i, reply, performance.now() - sent);
      events.push({ key: invoice.account, start: false });
    }),
  );
  const wallMs = performance.now() - started;
  // Read right after the run, before anything is delivered again.
  const balanceCents = sum(await balancesCents(fixture.accounts));
  const paidInvoices = await paidCount(
    runtime,
    invoices.map((invoice) => invoice.reference),
  );
  const exactlyOnce = await afterRun(runtime, fixture, outcomes, secret, balanceCents, paidInvoices);
  return summarizeRun({
    mode,
    concurrency,
    accounts: fixture.accounts.length,
    outcomes,
    wallMs,
    writes,
    maxInFlightPerAccount: maxInFlightPerKey(events),
    exactlyOnce,
  });
}

function describe(run: RunSummary): string {
  const check = run.exactlyOnce.pass ? 'exactly once' : `EXACTLY-ONCE FAILED: ${run.exactlyOnce.problems.join('; ')}`;
  return (
    `${run.mode} × ${run.concurrency}: ${run.confirmationsPerSecond}/s, 503 ${run.statuses['503'] ?? 0}, ` +
    `transient write failures ${run.writes.transient}/${run.writes.transactions} tx, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${check}`
  );
}

/** Prepares every run's accounts and pending charges, warms up, then measures the runs, one account then spread per level. */
export async function runContention(runtime: Runtime, options: ContentionOptions): Promise<ContentionReport> {
  const { progress, notifications } = options;
  const levels = options.levels ?? CONTENTION_LEVELS;
  attachWriteAttemptCounter(getDb());
  if (runtime.db !== getDb()) throw new Error('The handlers do not use the getDb() client: write attempts would not be counted');
  const newAccount = await accountFactory(runtime);
  const secret = await providerNotificationSecret(runtime.config.payments.credentialsSecretId, 'simulated');
  const loadBefore = loadavg().map((value) => round(value));

  const plan: Array<{ mode: ContentionMode; concurrency: number; accounts: number }> = levels.flatMap((concurrency) => [
    { mode: 'one-account' as const, concurrency, accounts: 1 },
    { mode: 'spread' as const, concurrency, accounts: SPREAD_ACCOUNTS },
  ]);
  const fixtures: RunFixture[] = [];
  const preparing = performance.now();
  progress(`contention: creating ${plan.length} × ${notifications} pending Pix charges (and ${WARMUP} for warm-up) through POST /api/pix/create`);
  const warm = await prepareRun(newAccount, 'warm-up', 1, WARMUP);
  for (const [i, run] of plan.entries()) {
    fixtures.push(await prepareRun(newAccount, `${run.mode} ${run.concurrency}`, run.accounts, notifications));
    progress(`contention: fixtures of run ${i + 1}/${plan.length} ready (${round((performance.now() - preparing) / 1000, 1)} s)`);
  }
  for (const invoice of warm.invoices) await notifyPixPaid(invoice.txid, secret);

  const runs: RunSummary[] = [];
  for (const [i, run] of plan.entries()) {
    const fixture = fixtures[i];
    if (!fixture) throw new Error('contention: missing fixture');
    const summary = await measureRun(runtime, run.mode, run.concurrency, fixture, secret);
    progress(`contention: ${describe(summary)}`);
    runs.push(summary);
  }
  return {
    generatedAt: new Date().toISOString(),
    environment: options.environment,
    notificationsPerRun: notifications,
    levels: [...levels],
    accountsSpread: SPREAD_ACCOUNTS,
    warmup: WARMUP,
    providerIpLimitPerMinute: runtime.config.rateLimits.public,
    runs,
    retriesCounted: 'client-attempts',
    pass: runs.every((run) => run.exactlyOnce.pass && onlyExpectedStatuses(run.statuses)),
    loadAverage: { before: loadBefore, after: loadavg().map((value) => round(value)) },
  };
}
