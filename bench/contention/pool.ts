/**
 * Runs task(0) … task(count − 1) with at most `concurrency` in flight: a closed loop of that many
 * callers, each taking the next index as soon as its last task settles (as concurrent Lambda
 * invocations would, each handling one notification at a time). Rejects with the first error after
 * every started task settled.
 */
export async function runPool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive whole number');
  let next = 0;
  const errors: unknown[] = [];
  const caller = async () => {
    while (next < count && errors.length === 0) {
      const index = next;
      next += 1;
      try {
        await task(index);
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, caller));
  if (errors.length > 0) throw errors[0];
}
