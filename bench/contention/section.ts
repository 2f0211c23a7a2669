import { round } from '../stats';
import type { ContentionReport, RunSummary } from './types';

/** The sentence every contention report carries: what DynamoDB Local can and cannot show. */
export const LOCAL_CAVEAT =
  'DynamoDB Local serializes writes and does not model partitions, per-partition throughput or the transaction conflicts AWS raises, ' +
  "so these figures show the code path's behaviour under concurrency (retries, 503 answers, exactly-once credits) on this machine, " +
  "not AWS's throughput; the AWS ceiling of one account is worked out on paper in docs/scaling.md.";

function percent(part: number, whole: number): string {
  return whole > 0 ? `${round((100 * part) / whole, 1)} %` : '0 %';
}

function reasons(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '' : ` (${entries.map(([name, n]) => `${name} ${n}`).join(', ')})`;
}

function row(run: RunSummary, spread: RunSummary | undefined): string {
  const answers503 = run.statuses['503'] ?? 0;
  const others = Object.entries(run.statuses).filter(([status]) => status !== '200' && status !== '503');
  const otherText = others.length > 0 ? `; other: ${others.map(([status, n]) => `${status} × ${n}`).join(', ')}` : '';
  const ratio =
    run.mode === 'one-account' && spread && spread.confirmationsPerSecond > 0 ? round(run.confirmationsPerSecond / spread.confirmationsPerSecond) : undefined;
  const check = run.exactlyOnce.pass ? 'PASS' : `FAIL: ${run.exactlyOnce.problems.join('; ')}`;
  return `| ${[
    String(run.concurrency),
    run.mode === 'one-account' ? 'one' : `${run.accounts} (max ${run.maxInFlightPerAccount} in flight per account)`,
    String(run.confirmationsPerSecond),
    ratio === undefined ? '' : String(ratio),
    `${answers503} (${percent(answers503, run.notifications)})${otherText}`,
    `${run.writes.transient} / ${run.writes.transactions} (${percent(run.writes.transient, run.writes.transactions)})${reasons(run.writes.byReason)}`,
    String(run.latencyMs.p50),
    String(run.latencyMs.p99),
    check,
  ].join(' | ')} |`;
}

/** The contention section of bench/reports/latest.md. */
export function contentionMarkdown(report: ContentionReport): string {
  const env = report.environment;
  const lines = [
    '## Contention: payment confirmations per second, one account against 100 (issue 13)',
    '',
    `${report.generatedAt} · ${report.notificationsPerRun} notifications per run after ${report.warmup} warm-up, ` +
      `levels ${report.levels.join(', ')} · Node ${env.node} · ${env.cpus} CPUs · DynamoDB Local ${env.dynamodbLocal} · ` +
      `load average ${report.loadAverage.before.join(' ')} → ${report.loadAverage.after.join(' ')}`,
    '',
    `**${LOCAL_CAVEAT}**`,
    '',
    "Each notification is the simulated provider's signed `pix.paid` of its own PENDING Pix charge (made beforehand through " +
      'POST /api/pix/create), sent to the real handler of POST /provider/simulated/notifications in-process by a closed loop of ' +
      '*concurrency* callers. *One*: every charge belongs to one account (one balance item); *100*: charge i belongs to account ' +
      'i mod 100. Every run has fresh accounts.',
    '',
    `All notifications come from one provider address, as in production (a provider sends from a few). Signed notifications are ` +
      `not counted per address (only refused signatures are, in the \`public\` class: ` +
      `${report.providerIpLimitPerMinute.toLocaleString('en-US')} a minute in this run), so the provider's address is no ceiling; ` +
      'counting every notification, as before issue 13, capped confirmations at 300 a minute for all accounts together.',
    '',
    '| Concurrency | Accounts | Confirmations/s | ÷ 100 accounts | 503 answers | Transient write failures / transaction attempts | p50 ms | p99 ms | Exactly once |',
    '|---:|---|---:|---:|---:|---|---:|---:|---|',
  ];
  for (const level of report.levels) {
    const spread = report.runs.find((run) => run.concurrency === level && run.mode === 'spread');
    for (const run of report.runs.filter((r) => r.concurrency === level)) lines.push(row(run, spread));
  }
  lines.push(
    '',
    "- **Confirmations/s**: notifications answered 200 with `applied: true`, over the run's wall time. **÷ 100 accounts**: the " +
      'one-account figure over the 100-account figure of the same concurrency.',
    '- **503 answers**: `temporary_conflict`, nothing written (the contention budget of shared/adapters/dynamo/contention.ts, ' +
      '3 s of retries, was spent); the provider delivers again.',
    '- **Transient write failures**: write attempts the handlers sent that failed only because of concurrency or throttling ' +
      "(the storage layer's own rule), counted on the DynamoDB client (a middleware inside the SDK's retry loop, so every " +
      'attempt): each was retried by `retryTransient`, except the last of a request answered 503. The storage layer keeps ' +
      'no counter of its own. By cancellation reason or error name in parentheses.',
    '- **p50 / p99**: wall time of one notification in the handler, 503 answers included.',
    "- **Exactly once**: right after the run the accounts' balances (GET /api/balance) equal the sum of the invoices whose " +
      'notification answered `applied: true`, and exactly those invoices are PAID; then every notification answered other than ' +
      'with 200 is delivered again (untimed) and must apply, ' +
      'duplicates of applied ones (fresh notification id, same charge) must not, and the balances must equal the sum of every ' +
      'invoice of the run. Invoice totals differ (by 37 amounts) so a missed credit and a double one do not cancel out.',
  );
  const failed = report.runs.filter((run) => !run.exactlyOnce.pass);
  lines.push(
    '',
    report.pass
      ? 'Result: PASS (every run credited each invoice exactly once; answers were 200 or 503 only).'
      : `Result: FAIL (${failed.length} run(s) failed the exactly-once check or answered other than 200/503).`,
  );
  return lines.join('\n');
}
