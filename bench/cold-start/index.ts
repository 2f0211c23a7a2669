/**
 * The cold-start section of `npm run bench`: bundles every deployed function and the two references
 * with the CDK's esbuild settings, imports each bundle `runs` times in fresh Node 22 processes (all
 * bundles interleaved, round after round), and some of them again with NODE_OPTIONS=--enable-source-maps.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { COLD_START_TARGETS, BYTES_PER_KB, interleavedOrder, kb, ratioTo, summarizeTimes, topInputs, topPackages, verdict } from './analysis';
import { type Bundle, bundleAll } from './bundle';
import { type BundleTarget, deployedTargets, EMPTY_ID, FLOOR_AS_DEPLOYED_ID, FLOOR_ID, isTargeted, referenceTargets } from './functions';
import { importOnce, nodeBinary } from './import-time';
import type { BesideRow, BundleContents, ColdStartReport, ColdStartRow, SourceMapRow } from './types';
import { BESIDE_BUNDLE_MODULES, besideBundleArgs, ESBUILD } from '../../infra/cdk/bundling';

export type ColdStartOptions = {
  root: string;
  /** Imports per bundle (the median is reported). */
  runs: number;
  progress: (line: string) => void;
};

/** Besides the floor and the largest API bundle, the functions also measured with --enable-source-maps. */
const SOURCE_MAP_SAMPLES = ['GetBalance', 'CreatePixCharge', 'Fallback'] as const;
/** How many of the biggest bundles get their contents listed (and the median-size API function's), and how many lines each. */
const BIGGEST = 3;
const TOP = 10;

type Job = { bundle: Bundle; sourceMaps: boolean; ms: number[]; error?: string };

function row(bundle: Bundle, job: Job, floorMedian: number): ColdStartRow {
  const importMs = summarizeTimes(job.ms);
  const ratioToFloor = job.error ? Number.NaN : ratioTo(importMs.median, floorMedian);
  const { target } = bundle;
  return {
    id: target.id,
    label: target.label,
    kind: target.kind,
    entry: target.entry,
    targeted: isTargeted(target.kind),
    bytes: bundle.bytes,
    kb: kb(bundle.bytes),
    mapKb: kb(bundle.mapBytes),
    importMs,
    ratioToFloor,
    verdict: verdict(bundle.bytes, ratioToFloor),
    ...(job.error ? { error: job.error } : {}),
  };
}

function contents(bundle: Bundle): BundleContents {
  return {
    id: bundle.target.id,
    label: bundle.target.label,
    kb: kb(bundle.bytes),
    inputs: topInputs(bundle.metafile, bundle.outputKey, TOP),
    packages: topPackages(bundle.metafile, bundle.outputKey, TOP),
  };
}

/** Runs every job `runs` times in a shuffled order per round; a job whose import fails stops being run. */
async function measureAll(node: string, jobs: Job[], runs: number, progress: (line: string) => void): Promise<void> {
  const order = interleavedOrder(jobs.length, runs);
  for (const [done, index] of order.entries()) {
    const job = jobs[index];
    if (!job || job.error) continue;
    try {
      job.ms.push(await importOnce(node, job.bundle.file, job.bundle.target.id, job.sourceMaps));
    } catch (err) {
      job.error = err instanceof Error ? err.message : String(err);
      progress(`cold start: ${job.error}`);
    }
    if ((done + 1) % jobs.length === 0) progress(`cold start: round ${(done + 1) / jobs.length} of ${runs} done`);
  }
}

/**
 * Each beside module built once (as the stack's afterBundling hook builds it into the asset of each
 * function that imports it), with the functions whose bundle names its file. The imports above run
 * without these files: a cold start never reads them.
 */
function besideModules(root: string, outDir: string, bundles: readonly Bundle[]): BesideRow[] {
  const dir = join(outDir, 'beside');
  mkdirSync(dir, { recursive: true });
  return BESIDE_BUNDLE_MODULES.map((module) => {
    const file = join(dir, module.file);
    execFileSync(ESBUILD, besideBundleArgs(module, file), { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    const functions = bundles.filter((b) => b.target.kind !== 'reference' && readFileSync(b.file, 'utf8').includes(`./${module.file}`)).map((b) => b.target.id);
    return { file: module.file, entry: module.entry, kb: kb(statSync(file).size), functions };
  });
}

export async function runColdStart(options: ColdStartOptions): Promise<ColdStartReport> {
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const { root, runs, progress } = options;
  const outDir = join(root, '.local', 'bench-cold-start');
  rmSync(outDir, { recursive: true, force: true });
  const targets: BundleTarget[] = [...referenceTargets, ...deployedTargets()];
  progress(`cold start: bundling ${targets.length} functions with the CDK's esbuild settings into .local/bench-cold-start`);
  const bundles = await bundleAll(root, outDir, targets);
  progress(`cold start: bundled in ${Math.round(performance.now() - started)} ms`);
  const byId = new Map(bundles.map((b) => [b.target.id, b]));
  const api = bundles.filter((b) => isTargeted(b.target.kind));
  const largestApi = [...api].sort((a, b) => b.bytes - a.bytes)[0];
  const mapIds = [FLOOR_ID, ...SOURCE_MAP_SAMPLES, ...(largestApi ? [largestApi.target.id] : [])].filter((id, i, all) => byId.has(id) && all.indexOf(id) === i);

  const plain: Job[] = bundles.map((bundle) => ({ bundle, sourceMaps: false, ms: [] }));
  const mapped: Job[] = mapIds.map((id) => ({ bundle: byId.get(id) as Bundle, sourceMaps: true, ms: [] }));
  const node = nodeBinary(root);
  const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  progress(`cold start: ${runs} imports of each of ${plain.length} bundles (and ${mapped.length} with --enable-source-maps), interleaved, Node ${nodeVersion}`);
  await measureAll(node, [...plain, ...mapped], runs, progress);

  const jobOf = (id: string, jobs: Job[]) => jobs.find((j) => j.bundle.target.id === id) as Job;
  const floorMedian = summarizeTimes(jobOf(FLOOR_ID, plain).ms).median;
  const floorWithMaps = summarizeTimes(jobOf(FLOOR_ID, mapped).ms).median;
  const rows = plain.map((job) => row(job.bundle, job, floorMedian));
  const functions = rows.filter((r) => r.kind !== 'reference');
  const sourceMaps: SourceMapRow[] = mapped.map((job) => {
    const without = summarizeTimes(jobOf(job.bundle.target.id, plain).ms);
    const withMaps = summarizeTimes(job.ms);
    return {
      id: job.bundle.target.id,
      label: job.bundle.target.label,
      kb: kb(job.bundle.bytes),
      mapKb: kb(job.bundle.mapBytes),
      without,
      with: withMaps,
      addedMs: withMaps.median - without.median,
      withToWithout: ratioTo(withMaps.median, without.median),
      ratioToFloorWith: ratioTo(withMaps.median, floorWithMaps),
      ...(job.error ? { error: job.error } : {}),
    };
  });
  const byteOrder = [...bundles].filter((b) => b.target.kind !== 'reference').sort((a, b) => b.bytes - a.bytes);
  // Beside the biggest, the API function of median size: what most functions hold.
  const apiBySize = byteOrder.filter((b) => isTargeted(b.target.kind));
  const typical = apiBySize[Math.floor(apiBySize.length / 2)];
  const failing = functions.filter((r) => r.targeted && !r.verdict.pass).map((r) => r.id);
  const beside = besideModules(root, outDir, bundles);
  return {
    generatedAt: new Date().toISOString(),
    runs,
    node: nodeVersion,
    esbuild: esbuildVersion,
    cpus: availableParallelism(),
    loadAverage: { before: loadBefore, after: loadavg()[0] ?? Number.NaN },
    durationSeconds: Math.round((performance.now() - started) / 1000),
    targets: { ...COLD_START_TARGETS, bytesPerKb: BYTES_PER_KB, floorMedianMs: floorMedian, importLimitMs: floorMedian * COLD_START_TARGETS.maxRatioToFloor },
    floor: rows.find((r) => r.id === FLOOR_ID) as ColdStartRow,
    floorAsDeployed: rows.find((r) => r.id === FLOOR_AS_DEPLOYED_ID) as ColdStartRow,
    empty: rows.find((r) => r.id === EMPTY_ID) as ColdStartRow,
    functions,
    beside,
    failing,
    sourceMaps,
    biggest: [...byteOrder.slice(0, BIGGEST), ...(typical ? [typical] : [])].map(contents),
    pass: failing.length === 0 && Number.isFinite(floorMedian),
  };
}
