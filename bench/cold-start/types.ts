/** The cold-start section's report (bench/reports/latest.json, key `coldStart`). */
import type { InputShare, TimeSummary, Verdict } from './analysis';
import type { FunctionKind } from './functions';

export type ColdStartRow = {
  id: string;
  label: string;
  kind: FunctionKind;
  entry: string;
  /** Bound by the targets: every deployed function since issue 44 (before it, the API functions only). */
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

/** A module a function loads from its own file beside its bundle when it needs it (infra/cdk/bundling.ts, BESIDE_BUNDLE_MODULES). */
export type BesideRow = {
  file: string;
  entry: string;
  kb: number;
  /** The functions whose bundle imports it (and whose asset holds it). */
  functions: string[];
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
  /** Every deployed function: the routes, the fallback, the edge authorizer, the workers. */
  functions: ColdStartRow[];
  /** The beside modules, outside every bundle and its budget (absent in reports made before issue 44's). */
  beside?: BesideRow[];
  /** Ids of the functions that miss a target. */
  failing: string[];
  sourceMaps: SourceMapRow[];
  /** The largest inputs and packages of the three biggest bundles, then of the API function of median size. */
  biggest: BundleContents[];
  /** Every function meets both targets. */
  pass: boolean;
};
