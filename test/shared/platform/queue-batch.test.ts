import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachBounded, RECORD_CONCURRENCY } from '../../../shared/platform/queue-batch';

/** Resolves after a few turns of the event loop (a macrotask each), so calls overlap. */
const turns = (n: number) => new Promise<void>((resolve) => setTimeout(resolve, n));

describe('forEachBounded', () => {
  it('never runs more than the limit at once, runs every item once, and reports each failure once, in input order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 3 }), fails: fc.boolean(), sync: fc.boolean() }), { maxLength: 25 }),
        fc.integer({ min: 1, max: 6 }),
        async (items, limit) => {
          let running = 0;
          let peak = 0;
          const seen: number[] = [];
          const failures = await forEachBounded(
            items.map((item, index) => ({ ...item, index })),
            limit,
            async (item) => {
              running += 1;
              peak = Math.max(peak, running);
              seen.push(item.index);
              try {
                // A synchronous throw (before any await) counts as a failure like a rejection does.
                if (item.fails && item.sync) throw new Error(`sync ${item.index}`);
                await turns(item.delay);
                if (item.fails) throw new Error(`async ${item.index}`);
              } finally {
                running -= 1;
              }
            },
          );
          expect(peak).toBeLessThanOrEqual(limit);
          expect(running).toBe(0);
          expect([...seen].sort((a, b) => a - b)).toEqual(items.map((_, index) => index));
          const expected = items.flatMap((item, index) => (item.fails ? [index] : []));
          expect(failures.map((f) => f.item.index)).toEqual(expected);
          for (const failure of failures) expect((failure.error as Error).message).toMatch(new RegExp(` ${failure.item.index}$`));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('uses the whole bound when there is work: 10 slow items run 4 at a time', async () => {
    let running = 0;
    let peak = 0;
    const release: (() => void)[] = [];
    const done = forEachBounded(
      Array.from({ length: 10 }, (_, i) => i),
      RECORD_CONCURRENCY,
      async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
      },
    );
    // Release the held calls one by one: each release lets exactly one more start.
    for (let released = 0; released < 10; released += 1) {
      await turns(1);
      expect(running).toBe(Math.min(RECORD_CONCURRENCY, 10 - released));
      release.shift()?.();
    }
    expect(await done).toEqual([]);
    expect(peak).toBe(RECORD_CONCURRENCY);
    expect(RECORD_CONCURRENCY).toBe(4);
  });

  it('handles an empty batch, and refuses a limit that is not a positive integer', async () => {
    expect(await forEachBounded([], 4, () => Promise.reject(new Error('never called')))).toEqual([]);
    for (const limit of [0, -1, 1.5, Number.NaN]) await expect(forEachBounded([1], limit, async () => undefined)).rejects.toThrow(RangeError);
  });
});
