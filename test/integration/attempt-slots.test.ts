import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoAttemptSlots, slotLogItemKey } from '../../shared/adapters/dynamo/attempt-slots';
import type { SlotLog, SlotScope, TakeResult } from '../../shared/domain/attempt-slots';
import { accountStore } from '../support/api';

/**
 * The attempt slots over DynamoDB Local (shared/adapters/dynamo/attempt-slots.ts): a burst of takes
 * admits exactly the limit, two scopes are taken all or nothing, entries gone from the window are
 * pruned in the take's own write, a retry of a held slot is admitted without a second, releases free.
 */
const HOUR = 3_600_000;
const store = accountStore();
const slots = dynamoAttemptSlots(store.db, store.table);

const cardLog = (): SlotLog => ({ kind: 'card', id: `test-${randomUUID()}` });
const merchantLog = (): SlotLog => ({ kind: 'merchant', id: `acct_test_${randomUUID()}` });
const scope = (log: SlotLog, limit: number, ms = HOUR): SlotScope => ({ log, limit, window: { kind: 'sliding', ms } });

async function stored(log: SlotLog): Promise<Record<string, number>> {
  const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: slotLogItemKey(log), ConsistentRead: true }))).Item;
  return (item?.slots as Record<string, number> | undefined) ?? {};
}

const admitted = (results: TakeResult[]) => results.filter((r) => r.admitted).length;

describe('attempt slots over DynamoDB Local', () => {
  it('40 concurrent takes of one log, limit 10: exactly 10 admitted, the log holds exactly those 10, the rest refused with Retry-After', async () => {
    const log = cardLog();
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => slots.take([scope(log, 10)], `s${i}`, now)));
    expect(admitted(results)).toBe(10);
    const winners = results.flatMap((r, i) => (r.admitted ? [`s${i}`] : []));
    expect(Object.keys(await stored(log)).sort()).toEqual(winners.sort());
    for (const r of results) if (!r.admitted) expect(r).toMatchObject({ refusedBy: log, retryAfterSeconds: 3600 });
  });

  it('two scopes at once (40 takes, card limit 10 beside a merchant limit 25 shared with 20 other takes): all or nothing, neither limit passed', async () => {
    const merchant = merchantLog();
    const cards = [cardLog(), cardLog()];
    const now = new Date();
    const both = Array.from({ length: 40 }, (_, i) => slots.take([scope(cards[i % 2] as SlotLog, 10), scope(merchant, 25)], `b${i}`, now));
    const alone = Array.from({ length: 20 }, (_, i) => slots.take([scope(merchant, 25)], `m${i}`, now));
    const results = await Promise.all([...both, ...alone]);
    const inMerchant = await stored(merchant);
    // Every refusal saw a full log: the 20 merchant-only takes alone could not all be admitted unless it filled.
    expect(Object.keys(inMerchant)).toHaveLength(25);
    expect(Object.keys(inMerchant).length).toBe(admitted(results));
    const [c0, c1] = [await stored(cards[0] as SlotLog), await stored(cards[1] as SlotLog)];
    expect(Object.keys(c0).length).toBeLessThanOrEqual(10);
    expect(Object.keys(c1).length).toBeLessThanOrEqual(10);
    // All or nothing: a two-scope take is in both of its logs, or in neither.
    results.slice(0, 40).forEach((r, i) => {
      const card = i % 2 === 0 ? c0 : c1;
      expect(card[`b${i}`] !== undefined, `b${i} in its card's log`).toBe(r.admitted);
      expect(inMerchant[`b${i}`] !== undefined, `b${i} in the merchant's log`).toBe(r.admitted);
    });
  });

  it("entries gone from the window are pruned by the take's own write; a retry of a held slot is admitted and takes no second; a release frees the slot", async () => {
    const log = cardLog();
    const now = Date.now();
    // A log as an earlier hour left it: three entries, two of them gone from the window, and the earlier shape's list.
    await store.db.send(
      new PutCommand({
        TableName: store.table,
        Item: { ...slotLogItemKey(log), type: 'cardDeclines', log: [1, 2, 3], slots: { gone1: now - 2 * HOUR, gone2: now - HOUR, live: now - 1000 }, ttl: 1 },
      }),
    );
    const first = await slots.take([scope(log, 2)], 'a', new Date(now));
    expect(first.admitted).toBe(true);
    expect(await stored(log)).toEqual({ live: now - 1000, a: now });
    expect((await slots.take([scope(log, 2)], 'b', new Date(now))).admitted).toBe(false);
    // The same attempt again, later: admitted for its own slot, its first time kept.
    expect((await slots.take([scope(log, 2)], 'a', new Date(now + 5000))).admitted).toBe(true);
    expect(await stored(log)).toEqual({ live: now - 1000, a: now });
    if (!first.admitted) throw new Error('admitted above');
    await slots.release(first.ticket);
    expect(await stored(log)).toEqual({ live: now - 1000 });
    expect((await slots.take([scope(log, 2)], 'b', new Date(now))).admitted).toBe(true);
    // A release of a log that is gone (its TTL passed) gives nothing back and fails nothing.
    await slots.release({ slotId: 'x', logs: [cardLog()] });
  });

  it('a missing log is created by the first take (many at once: one creates, the others add), with its TTL a window after the take', async () => {
    const log = merchantLog();
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => slots.take([scope(log, 3, 60_000)], `c${i}`, now)));
    expect(admitted(results)).toBe(3);
    const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: slotLogItemKey(log), ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ type: 'merchantDeclines', ttl: Math.ceil((now.getTime() + 60_000) / 1000) });
    expect(Object.keys(item?.slots as object)).toHaveLength(3);
  });
});
