import { performance } from 'node:perf_hooks';
import { Recorder, recordInto, type RoundTrip } from './round-trips';
import type { Scenario } from './scenarios';

/** One measured request: its wall time and its DynamoDB round trips. */
export type Sample = { ms: number; trips: RoundTrip[] };

export type MeasureOptions = { iterations: number; warmup: number; progress: (line: string) => void };

/**
 * Runs the scenarios round-robin, one request of each per round, so drift of the machine or of the
 * JVM behind DynamoDB Local touches every scenario alike. The first `warmup` rounds are not kept.
 */
export async function measure(list: readonly Scenario[], options: MeasureOptions): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(list.map((scenario) => [scenario.id, []]));
  const rounds = options.warmup + options.iterations;
  const step = Math.max(1, Math.floor(rounds / 5));
  for (let round = 0; round < rounds; round += 1) {
    if (round > 0 && round % step === 0) options.progress(`round ${round}/${rounds}`);
    for (const scenario of list) {
      const recorder = new Recorder();
      const started = performance.now();
      await recordInto(recorder, () => scenario.run(round));
      const ms = performance.now() - started;
      if (round >= options.warmup) samples.get(scenario.id)?.push({ ms, trips: [...recorder.trips] });
    }
  }
  return samples;
}
