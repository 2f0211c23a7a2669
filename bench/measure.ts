import { performance } from 'node:perf_hooks';
import { Recorder, recordInto, type RoundTrip } from './round-trips';
import type { Scenario } from './scenarios';

/** One measured request: its wall time and its DynamoDB round trips. */
export type Sample = { ms: number; trips: RoundTrip[] };

export type MeasureOptions = {
  iterations: number;
  warmup: number;
  progress: (line: string) => void;
  /** Runs after each request, outside its timing and its count (sizes the items a transaction updated). */
  settle?: (trips: RoundTrip[]) => Promise<void>;
};

/** How many requests a scenario makes, warm-up included, and how many of them are warm-up. */
export function budgetOf(scenario: Scenario, options: Pick<MeasureOptions, 'iterations' | 'warmup'>): { runs: number; warmup: number } {
  const budget = scenario.budget ?? options;
  return { runs: budget.warmup + budget.iterations, warmup: budget.warmup };
}

/**
 * Runs the scenarios round-robin, one request of each per round, so drift of the machine or of the
 * JVM behind DynamoDB Local touches every scenario alike. A scenario with a smaller budget runs in
 * rounds spread evenly over the whole run. Each scenario's first `warmup` requests are not kept.
 */
export async function measure(list: readonly Scenario[], options: MeasureOptions): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(list.map((scenario) => [scenario.id, []]));
  const rounds = options.warmup + options.iterations;
  const budgets = new Map(list.map((scenario) => [scenario.id, budgetOf(scenario, options)]));
  const step = Math.max(1, Math.floor(rounds / 5));
  for (let round = 0; round < rounds; round += 1) {
    if (round > 0 && round % step === 0) options.progress(`round ${round}/${rounds}`);
    for (const scenario of list) {
      const budget = budgets.get(scenario.id) ?? { runs: rounds, warmup: options.warmup };
      // The scenario's own request number: it advances in at most `runs` of the rounds, evenly spread.
      const request = Math.floor(((round + 1) * budget.runs) / rounds) - 1;
      if (request < 0 || request === Math.floor((round * budget.runs) / rounds) - 1) continue;
      const recorder = new Recorder();
      const started = performance.now();
      await recordInto(recorder, () => scenario.run(request));
      const ms = performance.now() - started;
      await options.settle?.(recorder.trips);
      if (request >= budget.warmup) samples.get(scenario.id)?.push({ ms, trips: [...recorder.trips] });
    }
  }
  return samples;
}
