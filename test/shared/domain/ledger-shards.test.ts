import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BALANCE_SHARDS, coverPlan, MAX_BALANCE_SHARDS, shardCountOf, shardOf } from '../../../shared/domain/ledger-shards';
import { type EntrySource, mergeNewestFirst } from '../../../shared/adapters/dynamo/ledger-statement';
import type { Item } from '../../../shared/adapters/dynamo/dynamo';

describe('shard choice', () => {
  it('is deterministic, within the count, and spreads references over every shard', () => {
    const references = Array.from({ length: 2_000 }, (_, i) => `INV-${String(i).padStart(6, '0')}`);
    for (const reference of references.slice(0, 50)) expect(shardOf(reference)).toBe(shardOf(reference));
    const counts = Array.from({ length: BALANCE_SHARDS }, () => 0);
    for (const reference of references) {
      const shard = shardOf(reference);
      expect(Number.isInteger(shard) && shard >= 0 && shard < BALANCE_SHARDS).toBe(true);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    // 2,000 references over 16 shards: 125 each on average; none empty, none holding a quarter.
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThan(500);
    expect(shardOf('WD-ABCDEFGHJKLM', 1)).toBe(0);
    expect(() => shardOf('x', 0)).toThrow();
  });

  it("reads the account's count, the default when absent or out of range", () => {
    expect(BALANCE_SHARDS).toBe(16);
    expect(shardCountOf({ balanceShards: 32 })).toBe(32);
    expect(shardCountOf({})).toBe(BALANCE_SHARDS);
    expect(shardCountOf(undefined)).toBe(BALANCE_SHARDS);
    expect(shardCountOf({ balanceShards: MAX_BALANCE_SHARDS + 1 })).toBe(BALANCE_SHARDS);
    expect(shardCountOf({ balanceShards: 0 })).toBe(BALANCE_SHARDS);
  });
});

describe('the cover plan of a withdrawal across shards', () => {
  it('takes from the fullest shards first (ties: lower index), each at most what it holds', () => {
    expect(coverPlan([100, 500, 300, 500], 900)).toEqual({
      takes: [
        { shard: 1, cents: 500 },
        { shard: 3, cents: 400 },
      ],
      fills: [],
    });
    expect(coverPlan([0, 0, 250], 250)).toEqual({ takes: [{ shard: 2, cents: 250 }], fills: [] });
  });

  it('refuses only when the sum does not cover it, negative shards counted', () => {
    expect(coverPlan([100, 200], 301)).toBeUndefined();
    expect(coverPlan([100, 200], 300)).toBeDefined();
    // The positive shards hold 1,000 but the sum is 400: 500 is not covered.
    expect(coverPlan([600, -600, 400], 500)).toBeUndefined();
    expect(coverPlan([600, -600, 400], 400)).toEqual({
      takes: [
        { shard: 0, cents: 600 },
        { shard: 2, cents: 400 },
      ],
      fills: [{ shard: 1, cents: 600 }],
    });
    expect(() => coverPlan([100], 0)).toThrow();
  });

  it('property: covered iff sum ≥ needed; afterwards no shard touched is negative and the sum fell by exactly needed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5_000, max: 20_000 }), { minLength: 1, maxLength: 64 }),
        fc.integer({ min: 1, max: 100_000 }),
        (shards, needed) => {
          const sum = shards.reduce((a, b) => a + b, 0);
          const plan = coverPlan(shards, needed);
          expect(plan !== undefined).toBe(sum >= needed);
          if (!plan) return;
          const after = [...shards];
          const touched = new Set<number>();
          for (const take of plan.takes) {
            expect(take.cents).toBeGreaterThan(0);
            expect(take.cents).toBeLessThanOrEqual(shards[take.shard] ?? 0);
            after[take.shard] = (after[take.shard] ?? 0) - take.cents;
            touched.add(take.shard);
          }
          for (const fill of plan.fills) {
            expect(touched.has(fill.shard)).toBe(false);
            after[fill.shard] = (after[fill.shard] ?? 0) + fill.cents;
            touched.add(fill.shard);
          }
          expect(after.reduce((a, b) => a + b, 0)).toBe(sum - needed);
          for (const shard of touched) expect(after[shard]).toBeGreaterThanOrEqual(0);
          // Every shard read below zero was filled: no shard is negative after the plan.
          expect(after.filter((cents) => cents < 0)).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A source over newest-first items served `pageSize` at a time, counting the pages read. */
function source(items: Item[], pageSize: number): EntrySource & { reads: () => number } {
  let at = 0;
  let reads = 0;
  return {
    next: async () => {
      reads += 1;
      const page = items.slice(at, at + pageSize);
      at += page.length;
      return page;
    },
    reads: () => reads,
  };
}

const entry = (sk: string): Item => ({ SK: sk });

describe('the statement merge over the shard partitions', () => {
  it('is newest first across shards (same instant: ids descending), skipping exactly the earlier pages', async () => {
    const shards = [
      [entry('2026-03-10T10:00:03.000Z#txn_b'), entry('2026-03-10T10:00:01.000Z#txn_a')],
      [],
      [entry('2026-03-10T10:00:03.000Z#txn_c'), entry('2026-03-10T10:00:02.000Z#txn_z'), entry('2026-03-09T23:59:59.999Z#txn_q')],
    ];
    const all = await mergeNewestFirst(
      shards.map((items) => source(items, 1)),
      0,
      50,
    );
    expect(all.map((item) => item.SK)).toEqual([
      '2026-03-10T10:00:03.000Z#txn_c',
      '2026-03-10T10:00:03.000Z#txn_b',
      '2026-03-10T10:00:02.000Z#txn_z',
      '2026-03-10T10:00:01.000Z#txn_a',
      '2026-03-09T23:59:59.999Z#txn_q',
    ]);
    const page2 = await mergeNewestFirst(
      shards.map((items) => source(items, 2)),
      2,
      2,
    );
    expect(page2.map((item) => item.SK)).toEqual(['2026-03-10T10:00:02.000Z#txn_z', '2026-03-10T10:00:01.000Z#txn_a']);
    expect(await mergeNewestFirst([source([], 5)], 0, 10)).toEqual([]);
  });

  it('property: pages of any size concatenate to the global newest-first order, without gap or overlap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 99_999 }), { maxLength: 30 }), { minLength: 1, maxLength: 16 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 10 }),
        async (perShard, limit, pageSize) => {
          const shards = perShard.map((times, shard) =>
            [...times].sort((a, b) => b - a).map((t) => entry(`${String(t).padStart(6, '0')}#txn_${String(shard).padStart(2, '0')}`)),
          );
          const expected = shards
            .flat()
            .map((item) => String(item.SK))
            .sort()
            .reverse();
          const pages: string[] = [];
          for (let page = 0; page * limit <= expected.length; page += 1) {
            const got = await mergeNewestFirst(
              shards.map((items) => source(items, pageSize)),
              page * limit,
              limit,
            );
            expect(got.length).toBe(Math.min(limit, Math.max(0, expected.length - page * limit)));
            pages.push(...got.map((item) => String(item.SK)));
          }
          expect(pages).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a shard only as far as the page needs', async () => {
    const deep = source(
      Array.from({ length: 100 }, (_, i) => entry(`2026-01-01T00:00:00.${String(999 - i).padStart(3, '0')}Z#txn_old`)),
      10,
    );
    const recent = source([entry('2027-01-01T00:00:00.000Z#txn_new')], 10);
    const page = await mergeNewestFirst([deep, recent], 0, 5);
    expect(page[0]?.SK).toBe('2027-01-01T00:00:00.000Z#txn_new');
    expect(page).toHaveLength(5);
    expect(deep.reads()).toBe(1);
  });
});
