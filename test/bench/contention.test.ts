import { describe, expect, it } from 'vitest';
import {
  accountOf,
  checkExactlyOnce,
  emptyAttempts,
  type ExactlyOnceFacts,
  maxInFlightPerKey,
  onlyExpectedStatuses,
  summarizeRun,
  tallyAttempt,
} from '../../bench/contention/analysis';
import { runPool } from '../../bench/contention/pool';
import { contentionMarkdown, LOCAL_CAVEAT } from '../../bench/contention/section';
import type { ContentionReport, Outcome, RunSummary } from '../../bench/contention/types';
import { COLD_START_BEGIN, CONTENTION_BEGIN, CONTENTION_END, mergeJson, mergeMarkdown, splitMarkdown } from '../../bench/report-files';

const cancelled = (...codes: string[]) => ({ name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });

describe('which account a notification credits', () => {
  it('goes round-robin over the accounts', () => {
    expect([0, 1, 99, 100, 101, 250].map((i) => accountOf(i, 100))).toEqual([0, 1, 99, 0, 1, 50]);
    expect([0, 7, 199].map((i) => accountOf(i, 1))).toEqual([0, 0, 0]);
  });

  it('refuses no accounts', () => {
    expect(() => accountOf(3, 0)).toThrow(/positive/);
  });
});

describe('the write-attempt tally', () => {
  it('counts transaction attempts and successes add no failure', () => {
    const attempts = emptyAttempts();
    tallyAttempt(attempts, 'TransactWriteItems');
    tallyAttempt(attempts, 'UpdateItem');
    expect(attempts).toEqual({ transactions: 1, transient: 0, byReason: {}, otherFailures: {} });
  });

  it('counts a transaction lost to a concurrent one under its cancellation reason, once per attempt', () => {
    const attempts = emptyAttempts();
    tallyAttempt(attempts, 'TransactWriteItems', cancelled('None', 'TransactionConflict', 'TransactionConflict', 'None'));
    tallyAttempt(attempts, 'TransactWriteItems', cancelled('TransactionConflict', 'ThrottlingError'));
    expect(attempts.transactions).toBe(2);
    expect(attempts.transient).toBe(2);
    expect(attempts.byReason).toEqual({ TransactionConflict: 2, ThrottlingError: 1 });
  });

  it('counts a single write that met a running transaction, and a throttle, by error name', () => {
    const attempts = emptyAttempts();
    tallyAttempt(attempts, 'UpdateItem', { name: 'TransactionConflictException' });
    tallyAttempt(attempts, 'PutItem', { name: 'ProvisionedThroughputExceededException' });
    expect(attempts.transient).toBe(2);
    expect(attempts.byReason).toEqual({ TransactionConflictException: 1, ProvisionedThroughputExceededException: 1 });
  });

  it('does not count a failed condition as contention, even beside a conflict', () => {
    const attempts = emptyAttempts();
    tallyAttempt(attempts, 'TransactWriteItems', cancelled('ConditionalCheckFailed', 'TransactionConflict'));
    tallyAttempt(attempts, 'UpdateItem', { name: 'ConditionalCheckFailedException' });
    expect(attempts.transient).toBe(0);
    expect(attempts.otherFailures).toEqual({ TransactionCanceledException: 1, ConditionalCheckFailedException: 1 });
  });
});

describe('notifications of one account in flight at once', () => {
  it('follows starts and ends per account', () => {
    const events = [
      { key: 1, start: true },
      { key: 2, start: true },
      { key: 1, start: true },
      { key: 1, start: false },
      { key: 1, start: true },
      { key: 2, start: false },
    ];
    expect(maxInFlightPerKey(events)).toBe(2);
    expect(maxInFlightPerKey(events.filter((event) => event.key === 2))).toBe(1);
    expect(maxInFlightPerKey([])).toBe(0);
  });
});

const goodFacts: ExactlyOnceFacts = {
  confirmedCents: 37_800,
  balanceCents: 37_800,
  paidInvoices: 2,
  applied: 2,
  redelivered: 1,
  redeliveredApplied: 1,
  duplicates: 2,
  duplicatesApplied: 0,
  finalBalanceCents: 56_700,
  allInvoicesCents: 56_700,
  unansweredAfterRedelivery: 0,
};

describe('the exactly-once check', () => {
  it('passes when the balances match the confirmed invoices before and all invoices after redelivery', () => {
    const check = checkExactlyOnce(goodFacts);
    expect(check.pass).toBe(true);
    expect(check.problems).toEqual([]);
    expect(check).not.toHaveProperty('unansweredAfterRedelivery');
  });

  it.each([
    ['a double credit', { balanceCents: 56_700 }, /balance 56700 cents after the run/],
    ['an invoice PAID without its credit', { paidInvoices: 3 }, /3 invoices PAID, 2 notifications applied/],
    ['a redelivery that did not apply', { redeliveredApplied: 0 }, /1 redelivered notifications did not apply/],
    ['a redelivery never answered 200', { unansweredAfterRedelivery: 1 }, /1 still unanswered/],
    ['a duplicate applied', { duplicatesApplied: 1 }, /1 duplicate notifications applied again/],
    ['a missing credit at the end', { finalBalanceCents: 37_800 }, /after redelivery/],
  ])('fails on %s', (_, change, message) => {
    const check = checkExactlyOnce({ ...goodFacts, ...change });
    expect(check.pass).toBe(false);
    expect(check.problems.join('; ')).toMatch(message);
  });
});

function outcome(invoice: number, status: number, ms: number, applied = status === 200): Outcome {
  return { invoice, status, applied, ms };
}

describe('a run summary', () => {
  const outcomes = [outcome(0, 200, 10), outcome(1, 200, 30), outcome(2, 503, 3_000), outcome(3, 200, 20, false)];
  const writes = { ...emptyAttempts(), transactions: 8, transient: 2, byReason: { TransactionConflict: 2 } };
  const summary = summarizeRun({
    mode: 'one-account',
    concurrency: 10,
    accounts: 1,
    outcomes,
    wallMs: 500,
    writes,
    maxInFlightPerAccount: 4,
    exactlyOnce: checkExactlyOnce(goodFacts),
  });

  it('counts only applied 200 answers as confirmations, per second of wall time', () => {
    expect(summary.confirmationsPerSecond).toBe(4);
    expect(summary.statuses).toEqual({ '200': 3, '503': 1 });
    expect(summary.rate503).toBe(0.25);
  });

  it('gives the conflict rate per transaction attempt and the latency percentiles, 503s included', () => {
    expect(summary.conflictRate).toBe(0.25);
    expect(summary.latencyMs).toEqual({ p50: 20, p99: 3_000, max: 3_000 });
    expect(summary.notifications).toBe(4);
  });

  it('accepts only 200 and 503 answers', () => {
    expect(onlyExpectedStatuses(summary.statuses)).toBe(true);
    expect(onlyExpectedStatuses({ '200': 5, '500': 1 })).toBe(false);
  });
});

describe('the pool of concurrent callers', () => {
  it('runs every index once with at most `concurrency` in flight', async () => {
    const seen: number[] = [];
    let inFlight = 0;
    let most = 0;
    await runPool(25, 4, async (index) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(index);
      inFlight -= 1;
    });
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(most).toBe(4);
  });

  it('uses no more callers than tasks and rejects with a task error', async () => {
    let most = 0;
    let inFlight = 0;
    await runPool(2, 10, async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
    });
    expect(most).toBe(2);
    await expect(
      runPool(5, 2, async (index) => {
        if (index === 3) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(runPool(1, 0, async () => undefined)).rejects.toThrow(/concurrency/);
  });
});

function run(mode: RunSummary['mode'], concurrency: number, perSecond: number, pass = true): RunSummary {
  return {
    ...summarizeRun({
      mode,
      concurrency,
      accounts: mode === 'one-account' ? 1 : 100,
      outcomes: [outcome(0, 200, 12), outcome(1, 503, 3_000)],
      wallMs: 1_000,
      writes: { ...emptyAttempts(), transactions: 5, transient: 3, byReason: { TransactionConflict: 3 } },
      maxInFlightPerAccount: mode === 'one-account' ? concurrency : 1,
      exactlyOnce: pass ? checkExactlyOnce(goodFacts) : checkExactlyOnce({ ...goodFacts, duplicatesApplied: 1 }),
    }),
    confirmationsPerSecond: perSecond,
  };
}

const report = (runs: RunSummary[], pass: boolean): ContentionReport => ({
  generatedAt: '2026-11-23T00:00:00.000Z',
  environment: { node: '22.23.3', platform: 'linux-x64', cpus: 2, dynamodbLocal: 'test' },
  notificationsPerRun: 2,
  levels: [1, 10],
  accountsSpread: 100,
  warmup: 10,
  providerIpLimitPerMinute: 1_000_000,
  runs,
  retriesCounted: 'client-attempts',
  pass,
  loadAverage: { before: [1, 1, 1], after: [2, 2, 2] },
});

describe('the contention section', () => {
  const text = contentionMarkdown(report([run('one-account', 1, 30), run('spread', 1, 40), run('one-account', 10, 45), run('spread', 10, 90)], true));

  it('states what DynamoDB Local cannot show and where the AWS ceiling is', () => {
    expect(text).toContain(LOCAL_CAVEAT);
    expect(LOCAL_CAVEAT).toMatch(/serializes writes/);
    expect(LOCAL_CAVEAT).toMatch(/docs\/scaling\.md/);
    expect(text).toContain('1,000,000 a minute in this run');
  });

  it('has a row per level and mode, the one-account figure over the spread one, the 503s and the conflicts', () => {
    expect(text).toContain('| 1 | one | 30 | 0.75 | 1 (50 %) | 3 / 5 (60 %) (TransactionConflict 3) | 12 | 3000 | PASS |');
    expect(text).toContain('| 10 | one | 45 | 0.5 |');
    expect(text).toContain('| 10 | 100 (max 1 in flight per account) | 90 |  |');
    expect(text).toContain('Result: PASS');
  });

  it('names a failed exactly-once check', () => {
    const failed = contentionMarkdown(report([run('one-account', 1, 30, false), run('spread', 1, 40)], false));
    expect(failed).toMatch(/\| FAIL: 1 duplicate notifications applied again \|/);
    expect(failed).toContain('Result: FAIL (1 run(s)');
  });
});

describe('the report files with the contention section', () => {
  const roundTrips = '# DynamoDB round trips\n\n| a | b |\n';

  it('writes the contention section between its markers after the cold start', () => {
    const text = mergeMarkdown(roundTrips, { coldStart: '## Cold start\n', contention: '## Contention\n\nfigures\n' });
    expect(text.indexOf(COLD_START_BEGIN)).toBeLessThan(text.indexOf(CONTENTION_BEGIN));
    expect(text.endsWith(`${CONTENTION_BEGIN}\n## Contention\n\nfigures\n\n${CONTENTION_END}\n`)).toBe(true);
  });

  it('replaces only the contention section, and keeps it when another section runs', () => {
    const all = mergeMarkdown(roundTrips, { coldStart: '## Cold start\n', contention: '## Contention\n\nold figures\n' });
    const fresh = mergeMarkdown(all, { contention: '## Contention\n\nnew figures\n' });
    expect(fresh).toContain('new figures');
    expect(fresh).not.toContain('old figures');
    expect(splitMarkdown(fresh).roundTrips).toBe(roundTrips.trimEnd());
    expect(splitMarkdown(fresh).coldStart).toContain('## Cold start');
    const newRoundTrips = mergeMarkdown(all, { roundTrips: '# DynamoDB round trips\n\nnew table\n' });
    expect(splitMarkdown(newRoundTrips).contention).toBe(`${CONTENTION_BEGIN}\n## Contention\n\nold figures\n\n${CONTENTION_END}`);
    expect(newRoundTrips).not.toContain('| a | b |');
  });

  it('keeps the contention under its own key in the JSON', () => {
    const previous = { generatedAt: 'old', coldStart: { runs: 7 }, contention: { runs: [1] } };
    expect(mergeJson(previous, { roundTrips: { generatedAt: 'new' } })).toEqual({ generatedAt: 'new', coldStart: { runs: 7 }, contention: { runs: [1] } });
    expect(mergeJson(previous, { contention: { runs: [2] } })).toEqual({ generatedAt: 'old', coldStart: { runs: 7 }, contention: { runs: [2] } });
  });
});
