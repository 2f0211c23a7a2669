import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { brazilDayBounds } from '../../domain/brazil-dates';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { accountShardCount } from './ledger-balance';
import type { LedgerEntry } from '../../domain/ledger';
import { ledgerEntryOf } from './ledger';

import type { LedgerReader, StatementQuery } from '../../ports/ledger';
import { balanceCents } from './ledger-balance';

export type { StatementQuery };

/** At most this many entries are read for one page (over all shards; the type filter runs after the read). */
const MAX_SCANNED = 10_000;

/** The SK bounds of a Brazil-time date range (inclusive); open ends take every entry (SK = `<ISO time>#<id>`). */
function skRange(start: string | undefined, end: string | undefined): { from: string; to: string } {
  // '0' sorts before and '~' after every ISO time of these years and every id: the whole last millisecond is included.
  const from = start ? new Date(brazilDayBounds(start).startMs).toISOString() : '0';
  const to = end ? `${new Date(brazilDayBounds(end).endMs).toISOString()}~` : '~';
  return { from, to };
}

/** One shard's entries, newest first, read a page at a time: `next` gives the next page (empty once done). */
export type EntrySource = { next: () => Promise<Item[]> };

/**
 * The k-way merge of the shards' entries, newest first: every source is newest first (by SK, the ISO
 * time then the entry id, unique per account), and the merge always takes the largest SK among the
 * sources' heads, so the order is the one a single partition had (same instant: ids descending).
 * Skips `skip` entries, returns the next `take`; a source is read only as far as the page needs.
 */
export async function mergeNewestFirst(sources: readonly EntrySource[], skip: number, take: number, maxScanned = MAX_SCANNED): Promise<Item[]> {
  const buffers: Item[][] = sources.map(() => []);
  const done = sources.map(() => false);
  let scanned = 0;
  const fill = async (i: number) => {
    while (!done[i] && (buffers[i]?.length ?? 0) === 0) {
      const page = await (sources[i] as EntrySource).next();
      if (page.length === 0) done[i] = true;
      else {
        scanned += page.length;
        buffers[i] = page;
      }
    }
  };
  await Promise.all(sources.map((_, i) => fill(i)));
  const found: Item[] = [];
  let skipped = 0;
  while (found.length < take) {
    let best = -1;
    for (let i = 0; i < buffers.length; i += 1) {
      const head = buffers[i]?.[0];
      if (head === undefined) continue;
      const bestHead = buffers[best]?.[0];
      if (bestHead === undefined || String(head.SK) > String(bestHead.SK)) best = i;
    }
    if (best < 0) break;
    const item = (buffers[best] as Item[]).shift() as Item;
    if (skipped < skip) skipped += 1;
    else found.push(item);
    if ((buffers[best] as Item[]).length === 0) {
      if (scanned >= maxScanned) done[best] = true;
      await fill(best);
    }
  }
  return found;
}

/** The entries of one shard's ledger partition, newest first, within the range and of the type (filtered by DynamoDB). */
function shardSource(db: Db, table: string, partition: string, query: StatementQuery, pageSize: number): EntrySource {
  const { from, to } = skRange(query.start, query.end);
  let startKey: Record<string, unknown> | undefined;
  let finished = false;
  return {
    next: async () => {
      // A filtered page may come back empty with more to read: read on until entries or the end.
      while (!finished) {
        const out = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
            ...(query.type ? { FilterExpression: 'entryType = :type' } : {}),
            ExpressionAttributeValues: { ':pk': partition, ':from': from, ':to': to, ...(query.type ? { ':type': query.type } : {}) },
            ScanIndexForward: false,
            ConsistentRead: true,
            Limit: pageSize,
            ExclusiveStartKey: startKey,
          }),
        );
        startKey = out.LastEvaluatedKey;
        finished = startKey === undefined;
        if ((out.Items ?? []).length > 0) return out.Items ?? [];
      }
      return [];
    },
  };
}

/**
 * One page of an account's ledger entries, newest first: the entries live in one partition per
 * balance shard (`LEDGER#<account>#<k>`, SK `<time>#<id>`, so a date range is a key range, the type
 * filtered by DynamoDB); the page is the k-way merge of the S partitions, exact for any page number
 * (each partition is read from its newest entry, as far as the page needs: at most skip + limit each).
 */
export async function statementPage(db: Db, table: string, accountId: string, query: StatementQuery): Promise<LedgerEntry[]> {
  const count = await accountShardCount(db, table, accountId);
  const skip = (query.page - 1) * query.limit;
  const pageSize = Math.min(100, skip + query.limit);
  const sources = Array.from({ length: count }, (_, k) => shardSource(db, table, keys.ledgerPartition(accountId, k), query, pageSize));
  return (await mergeNewestFirst(sources, skip, query.limit)).map(ledgerEntryOf);
}

/** The account's own reads of the ledger over the table: its balance and its statement. */
export function dynamoLedgerReader(db: Db, table: string): LedgerReader {
  return { balance: (accountId) => balanceCents(db, table, accountId), statement: (accountId, query) => statementPage(db, table, accountId, query) };
}
