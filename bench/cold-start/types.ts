/** The cold-start section's report (bench/reports/latest.json, key `coldStart`). */
import type { InputShare, TimeSummary, Verdict } from './analysis';
import type { FunctionKind } from './functions';

export type ColdStartRow = {
  id: string;
  label: string;
  kind: FunctionKind;
  entry: string;
  /** Bound by the targets (the API functions); workers are reported for information. */
  targeted: boolean;
  bytes: number;
  kb: number;
  mapKb: number;
  importMs: TimeSummary;
  /** Import median over the floor's import median of the same run. */
  ratioToFloor: number;
  verdict: Verdict;
  /** Why the import could not be measured. */
  error?: string;
};

export type SourceMapRow = {
  id: string;
  label: string;
  kb: number;
  mapKb: number;
  without: TimeSummary;
  with: TimeSummary;
  addedMs: number;
  withToWithout: number;
  /** With the flag, over the floor's median with the flag too. */
  ratioToFloorWith: number;
  error?: string;
};

export type BundleContents = { id: string; label: string; kb: number; inputs: InputShare[]; packages: InputShare[] };

export type ColdStartReport = {
  generatedAt: string;
  runs: number;
  node: string;
  esbuild: string;
  cpus: number;
  /** The machine's one-minute load average when the section started and ended (other work on it skews the times). */
  loadAverage: { before: number; after: number };
  durationSeconds: number;
  targets: { maxKb: number; maxRatioToFloor: number; bytesPerKb: number; floorMedianMs: number; importLimitMs: number };
  floor: ColdStartRow;
  /** The floor's module bundled with the stack's substitutions (infra/cdk/bundling.ts), for information; absent in reports made before. */
  floorAsDeployed?: ColdStartRow;
  empty: ColdStartRow;
  /** Every deployed function: the routes, the fallback, the workers. */
  functions: ColdStartRow[];
  /** Ids of the API functions that miss a target. */
  failing: string[];
  sourceMaps: SourceMapRow[];
  /** The largest inputs and packages of the three biggest bundles, then of the API function of median size. */
  biggest: BundleContents[];
  /** Every API function meets both targets. */
  pass: boolean;
};
