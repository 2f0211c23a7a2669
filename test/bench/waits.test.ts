import { describe, expect, it } from 'vitest';
import { evaluateTargets } from '../../bench/report';
import { criticalPath, minimumReadUnits, type RoundTrip, timeOnTheTable } from '../../bench/round-trips';

const trip = (startedAt: number, endedAt: number, purpose: RoundTrip['purpose'] = 'read'): RoundTrip => ({
  operation: 'GetItem',
  purpose,
  ok: true,
  ms: endedAt - startedAt,
  startedAt,
  endedAt,
  reportedUnits: 1,
  billedWcu: 0,
  billedRcu: 1,
  billedGsiWcu: 0,
});

describe('the waits of a request (round trips on its critical path)', () => {
  it('counts calls sent together once, and calls sent after an answer again', () => {
    expect(criticalPath([])).toBe(0);
    // The gate beside the read: one wait.
    expect(criticalPath([trip(0, 3, 'gate'), trip(0.1, 4)])).toBe(1);
    // The gate, then the read: two.
    expect(criticalPath([trip(0, 3, 'gate'), trip(3, 6)])).toBe(2);
    // Gate, lock and reads together; then the commit: two, whatever the order they were recorded in.
    expect(criticalPath([trip(10, 14, 'commit'), trip(0, 3, 'gate'), trip(0, 4, 'idempotency'), trip(0.2, 5)])).toBe(2);
    // A chain through the longest overlap: a→c and b→c→d make three.
    expect(criticalPath([trip(0, 2), trip(0, 5), trip(5, 6), trip(6, 7)])).toBe(3);
  });

  it("measures the table's share of a request as the union of its round trips, overlaps counted once", () => {
    expect(timeOnTheTable([])).toBe(0);
    // The gate beside the read: 0–3 and 0.5–4 overlap into 0–4.
    expect(timeOnTheTable([trip(0, 3, 'gate'), trip(0.5, 4)])).toBe(4);
    // Two waits with the handler's own work between them (4–6): 4 + 3.
    expect(timeOnTheTable([trip(6, 9, 'commit'), trip(0, 3, 'gate'), trip(0.5, 4)])).toBe(7);
    // A call inside another adds nothing.
    expect(timeOnTheTable([trip(0, 10), trip(2, 3), trip(9, 12)])).toBe(12);
  });

  it('bills every key a read asks for, found or not: a BatchGetItem as one GetItem per key', () => {
    expect(minimumReadUnits('GetItem', { ConsistentRead: true })).toBe(1);
    expect(minimumReadUnits('Query', {})).toBe(0.5);
    const keys = (n: number) => Array.from({ length: n }, (_, i) => ({ PK: `K#${i}`, SK: 'S' }));
    expect(minimumReadUnits('BatchGetItem', { RequestItems: { t: { Keys: keys(2), ConsistentRead: true } } })).toBe(2);
    expect(minimumReadUnits('BatchGetItem', { RequestItems: { t: { Keys: keys(17) } } })).toBe(8.5);
  });

  it('holds the read routes to one wait and to the raw transaction, and fails a target when the median misses it', () => {
    const read = (waitsApart: boolean, ms: number) => ({ ms, trips: waitsApart ? [trip(0, 1, 'gate'), trip(1, 2)] : [trip(0, 1, 'gate'), trip(0, 2)] });
    const routes = ['balance', 'customer-get', 'customer-list', 'invoice-get', 'invoice-get-ref', 'pix-get-txid', 'invoice-list'];
    const beside = new Map(routes.map((id) => [id, [read(false, 3), read(false, 3.5), read(false, 4)]]));
    const targets = (samples: Map<string, { ms: number; trips: RoundTrip[] }[]>) => Object.fromEntries(evaluateTargets(samples, 4).map((t) => [t.id, t]));
    expect(targets(beside)['read-waits']).toMatchObject({ pass: true, median: 1 });
    expect(targets(beside)['read-ratio']).toMatchObject({ pass: true, median: 0.88 });
    const after = new Map(beside);
    after.set('invoice-get', [read(true, 3), read(true, 3), read(false, 6)]);
    expect(targets(after)['read-waits']).toMatchObject({ pass: false, median: 2 });
    const slow = new Map(beside);
    slow.set('balance', [read(false, 5), read(false, 6), read(false, 3)]);
    expect(targets(slow)['read-ratio']).toMatchObject({ pass: false, median: 1.25 });
  });
});
