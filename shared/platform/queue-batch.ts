import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/**
 * How many records of one SQS batch a worker handles at once. Sequential handling would add up the
 * slow calls of a batch (10 payouts × a 5 s bank limit is past the payout worker's 30 s); unbounded,
 * one invocation would open a connection per record. With 4, a batch of 10 takes at most 3 rounds.
 */
export const RECORD_CONCURRENCY = 4;

/** An item whose handler threw, with what it threw. */
export type BoundedFailure<T> = { item: T; error: unknown };

/**
 * Runs `fn` on every item with at most `limit` calls in progress at any moment, and resolves once
 * every call has settled. Never rejects: the items whose call threw (or rejected) come back, each
 * once, in the order of `items`.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<BoundedFailure<T>[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer (got ${limit})`);
  const failed: { index: number; failure: BoundedFailure<T> }[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index] as T;
      try {
        await fn(item);
      } catch (error) {
        failed.push({ index, failure: { item, error } });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return failed.sort((a, b) => a.index - b.index).map((f) => f.failure);
}

/**
 * An SQS consumer's batch: each record handled by `handle`, RECORD_CONCURRENCY at a time; a record
 * whose handling threw is passed to `report` (to log it) and reported for redelivery
 * (ReportBatchItemFailures), the others are deleted.
 */
export async function handleSqsBatch(
  event: SQSEvent,
  handle: (record: SQSRecord) => Promise<void>,
  report: (messageId: string, error: unknown) => void,
): Promise<SQSBatchResponse> {
  const failed = await forEachBounded(event.Records, RECORD_CONCURRENCY, handle);
  for (const { item, error } of failed) report(item.messageId, error);
  return { batchItemFailures: failed.map(({ item }) => ({ itemIdentifier: item.messageId })) };
}
