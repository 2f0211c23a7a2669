/** The cold-start section's arithmetic: pure functions over sizes, import times and esbuild metafiles. */
import type { Metafile } from 'esbuild';
import { median } from '../stats';

/** The targets for every API function (issue 13's, raised by issue 44 for Powertools Logger and Metrics: 512 KB, 1.3 × the floor). */
export const COLD_START_TARGETS = { maxKb: 512, maxRatioToFloor: 1.3 } as const;

/** The report's KB: 1,024 bytes. */
export const BYTES_PER_KB = 1024;

export function kb(bytes: number): number {
  return bytes / BYTES_PER_KB;
}

export type Verdict = { sizePass: boolean; importPass: boolean; pass: boolean };

/**
 * A function passes when its bundle is at most maxKb and its median import at most maxRatioToFloor
 * times the floor's median of the same run. A missing measurement (NaN: the import failed) fails.
 */
export function verdict(bytes: number, ratioToFloor: number, targets: { maxKb: number; maxRatioToFloor: number } = COLD_START_TARGETS): Verdict {
  const sizePass = Number.isFinite(bytes) && kb(bytes) <= targets.maxKb;
  const importPass = Number.isFinite(ratioToFloor) && ratioToFloor <= targets.maxRatioToFloor;
  return { sizePass, importPass, pass: sizePass && importPass };
}

/** A median over the floor's median; NaN when either is missing or the floor is not positive. */
export function ratioTo(value: number, floor: number): number {
  return Number.isFinite(value) && Number.isFinite(floor) && floor > 0 ? value / floor : Number.NaN;
}

export type TimeSummary = { median: number; min: number; max: number; runs: number };

export function summarizeTimes(ms: readonly number[]): TimeSummary {
  return ms.length === 0
    ? { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 }
    : { median: median(ms), min: Math.min(...ms), max: Math.max(...ms), runs: ms.length };
}

export type InputShare = { path: string; bytes: number; share: number };

/** The metafile output's bytes by input file, largest first: what the bundle holds. */
export function topInputs(metafile: Metafile, outputKey: string, n: number): InputShare[] {
  const output = metafile.outputs[outputKey];
  if (!output) throw new Error(`no output ${outputKey} in the metafile`);
  return Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput, share: output.bytes > 0 ? bytesInOutput / output.bytes : 0 }))
    .sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path))
    .slice(0, n);
}

/**
 * The package an input belongs to: the name after its last node_modules/ (scoped names keep their
 * scope), or, for the project's own files, their folder (`shared/domain/schemas`).
 */
export function packageOf(path: string): string {
  const marker = 'node_modules/';
  const at = path.lastIndexOf(marker);
  if (at >= 0) {
    const parts = path.slice(at + marker.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? path);
  }
  // A project file counts under its folder (shared/domain/schemas, shared/adapters/dynamo…); a top-level file as itself.
  const parts = path.split('/');
  return parts.length > 2 ? parts.slice(0, -1).join('/') : path;
}

/** The same bytes summed by package (see packageOf), largest first. */
export function topPackages(metafile: Metafile, outputKey: string, n: number): InputShare[] {
  const all = topInputs(metafile, outputKey, Number.POSITIVE_INFINITY);
  const total = metafile.outputs[outputKey]?.bytes ?? 0;
  const sums = new Map<string, number>();
  for (const input of all) sums.set(packageOf(input.path), (sums.get(packageOf(input.path)) ?? 0) + input.bytes);
  return [...sums.entries()]
    .map(([path, bytes]) => ({ path, bytes, share: total > 0 ? bytes / total : 0 }))
    .sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path))
    .slice(0, n);
}

/** A small seeded generator (mulberry32): the same seed gives the same order, run after run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order of a measuring pass: `rounds` rounds, each running every job once in its own shuffled
 * order (seeded, so reproducible), so that no job always runs first, last or after the same
 * neighbour, and the machine's drift touches every job alike.
 */
export function interleavedOrder(jobs: number, rounds: number, seed = 13): number[] {
  const random = seeded(seed);
  const order: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const pass = Array.from({ length: jobs }, (_, i) => i);
    for (let i = pass.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pass[i], pass[j]] = [pass[j] as number, pass[i] as number];
    }
    order.push(...pass);
  }
  return order;
}
