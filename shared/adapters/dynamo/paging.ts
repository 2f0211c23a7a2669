import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db, Item } from './dynamo';

export type PageRequest<T> = {
  /** The Query, without ExclusiveStartKey and Limit (this function pages through it). */
  query: QueryCommandInput;
  page: number;
  pageSize: number;
  /** Turns an item into what the page holds, or undefined when a filter drops it. */
  keep: (item: Item) => T | undefined;
  /** At most this many items are read for one page (filters applied in the function cost reads). */
  maxScanned?: number;
};

/**
 * One page of a Query whose filters run in the function (after unsealing, or partial matches
 * DynamoDB cannot do): reads in order, skips (page − 1) × pageSize kept items, returns the next
 * pageSize. Reads stop as soon as the page is full.
 */
export async function queryPage<T>(db: Db, request: PageRequest<T>): Promise<T[]> {
  const skip = (request.page - 1) * request.pageSize;
  const maxScanned = request.maxScanned ?? 10_000;
  const found: T[] = [];
  let kept = 0;
  let scanned = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...request.query, Limit: Math.min(100, skip + request.pageSize), ExclusiveStartKey: startKey }));
    for (const item of out.Items ?? []) {
      scanned += 1;
      const value = request.keep(item);
      if (value === undefined) continue;
      kept += 1;
      if (kept > skip) found.push(value);
      if (found.length === request.pageSize) return found;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && scanned < maxScanned);
  return found;
}
