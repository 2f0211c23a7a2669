/**
 * `npm run bench`: DynamoDB round trips, latency and capacity per route, beside one raw transaction
 * measured in the same run. Options: --iterations=N (default 200), --warmup=N (default 20), or the
 * BENCH_ITERATIONS / BENCH_WARMUP environment variables; the customer, charge, invoice and
 * notification scenarios may make fewer requests, spread evenly over the run: --payments-iterations=N
 * and --payments-warmup=N (BENCH_PAYMENTS_ITERATIONS / BENCH_PAYMENTS_WARMUP), by default and at
 * most the run's own. The cold-start section (every function bundled as the CDK bundles it, imported
 * in fresh Node 22 processes) runs first: --cold-start-runs=N imports per bundle (default 7,
 * BENCH_COLD_START_RUNS). The contention section (payment confirmations per second for one account
 * and for 100, at 1, 10, 50 and 100 concurrent notifications) runs last: --contention-notifications=N
 * per run (default 200, BENCH_CONTENTION_NOTIFICATIONS). --only=cold-start, --only=round-trips or
 * --only=contention (BENCH_ONLY) runs one section and keeps the others' from the last report. Exit
 * code 1 when a target fails.
 *
 * The environment is set before any service module loads: the configuration is read once per
 * process and the logger reads its level when it is created, so the modules are imported after.
 */
export {};

const RATE_LIMIT = '1000000';

function option(name: string, fallback: number): number {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const raw = flag?.slice(name.length + 3) ?? process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || ((name.endsWith('iterations') || name.endsWith('runs') || name.endsWith('notifications')) && value < 1))
    throw new Error(`--${name} must be a whole number (got ${raw})`);
  return value;
}

const SECTIONS = ['round-trips', 'cold-start', 'contention'] as const;

/** --only=<section> (or BENCH_ONLY): run that section alone. */
function onlySection(): (typeof SECTIONS)[number] | undefined {
  const raw = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? process.env.BENCH_ONLY;
  if (raw === undefined || raw === '') return undefined;
  const section = SECTIONS.find((name) => name === raw);
  if (!section) throw new Error(`--only must be one of ${SECTIONS.join(', ')} (got ${raw})`);
  return section;
}

const only = onlySection();
const sections = {
  roundTrips: only === undefined || only === 'round-trips',
  coldStart: only === undefined || only === 'cold-start',
  contention: only === undefined || only === 'contention',
};
const coldStartRuns = option('cold-start-runs', 7);
const contentionNotifications = option('contention-notifications', 200);
const iterations = option('iterations', 200);
const warmup = option('warmup', 20);
// Creating charges is the slowest work here (QR codes, sealing): these options shorten a run without
// thinning the other scenarios' samples.
const payments = { iterations: Math.min(iterations, option('payments-iterations', iterations)), warmup: Math.min(warmup, option('payments-warmup', warmup)) };

// One account and one client address serve each warm scenario, so the per-minute limits (60 per
// account, 10 per IP) are raised for this process; the cost of a window's first call is measured
// apart, with a fresh account or a fresh IP per request.
process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = RATE_LIMIT;
process.env.RATE_LIMIT_AUTH_PER_MINUTE = RATE_LIMIT;
// One log line per request would bury the table; warnings and errors still print.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const rateLimitNote =
  `RATE_LIMIT_ACCOUNT_PER_MINUTE and RATE_LIMIT_AUTH_PER_MINUTE set to ${RATE_LIMIT} before the configuration was read, ` +
  "so each warm scenario uses one account and one source IP; the window's first call (two counter updates) is measured apart " +
  'with a fresh account (balance) or a fresh source IP (auth) per request.';

const { runBench } = await import('./main');
try {
  const passed = await runBench({ iterations, warmup, payments, rateLimitNote, sections, coldStartRuns, contentionNotifications });
  process.exitCode = passed ? 0 : 1;
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
}
