import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterFailedRound,
  forgetAt,
  hasLeft,
  type KnownLog,
  MAX_TAKE_ROUNDS,
  planWrite,
  retryAfterSeconds,
  slotLogKey,
  type Slots,
  type SlotScope,
  type SlotWindow,
  type TakeResult,
  writeAdmits,
} from '../../../shared/domain/attempt-slots';
import { MemorySlotStore, memoryAttemptSlots } from '../../support/attempt-slots';

const HOUR = 3_600_000;
const sliding: SlotWindow = { kind: 'sliding', ms: HOUR };
const sliding10: SlotWindow = { kind: 'sliding', ms: 10 };

describe('attempt slots: the rules', () => {
  it('entries leave a sliding window a window after they were taken, a fixed one at its end, a lifetime one never', () => {
    expect(hasLeft(1_000, 1_000 + HOUR - 1, sliding)).toBe(false);
    expect(hasLeft(1_000, 1_000 + HOUR, sliding)).toBe(true);
    const fixed: SlotWindow = { kind: 'fixed', ms: 900_000 };
    expect(hasLeft(899_999, 899_999, fixed)).toBe(false);
    expect(hasLeft(899_999, 900_000, fixed)).toBe(true);
    expect(hasLeft(0, Number.MAX_SAFE_INTEGER, { kind: 'lifetime', keepMs: 1 })).toBe(false);
    expect(forgetAt(5_000, fixed)).toBe(900_000);
    expect(forgetAt(5_000, sliding)).toBe(5_000 + HOUR);
    expect(forgetAt(5_000, { kind: 'lifetime', keepMs: 10 })).toBe(5_010);
  });

  it('Retry-After: until enough live entries leave for one more (at least 1 s); never for a lifetime log; 0 with room', () => {
    const now = 10 * HOUR;
    expect(retryAfterSeconds({ a: now - HOUR + 30_000, b: now - 10 }, 2, now, sliding)).toBe(30);
    expect(retryAfterSeconds({ a: now - HOUR + 30_000, b: now - 10 }, 3, now, sliding)).toBe(0);
    expect(retryAfterSeconds({ a: now, b: now, c: now - HOUR + 200 }, 3, now, sliding)).toBe(1);
    // Two must leave before a third fits under a limit of 2.
    expect(retryAfterSeconds({ a: now, b: now, c: now - HOUR + 200 }, 2, now, sliding)).toBe(3600);
    expect(retryAfterSeconds({ a: now }, 1, now, { kind: 'lifetime', keepMs: HOUR })).toBeUndefined();
    expect(retryAfterSeconds({ a: now + 1 }, 1, now + 60_000, { kind: 'fixed', ms: 900_000 })).toBe(840);
    expect(retryAfterSeconds({ a: now - 1 }, 1, now + 60_000, { kind: 'fixed', ms: 900_000 })).toBe(0);
  });

  it('a write prunes only entries read as left, and its condition needs them still as read', () => {
    const scope: SlotScope = { log: { kind: 'card', id: 'c' }, limit: 2, window: sliding };
    const now = 5 * HOUR;
    const read: KnownLog = { state: 'read', slots: { old: now - 2 * HOUR, live: now - 1 } };
    const write = planWrite(read, scope, 'me', now);
    expect(write).toEqual({ kind: 'add', prune: { old: now - 2 * HOUR }, cap: 3 });
    expect(writeAdmits({ old: now - 2 * HOUR, live: now - 1 }, write, 'me')).toBe(true);
    // Pruned by another meanwhile, and its place taken: the condition fails (the cap would count a gone entry).
    expect(writeAdmits({ live: now - 1, other: now }, write, 'me')).toBe(false);
    // Its own slot is always admitted again.
    expect(writeAdmits({ live: now - 1, other: now, me: now - 5 }, write, 'me')).toBe(true);
    expect(writeAdmits(undefined, write, 'me')).toBe(false);
    expect(writeAdmits(undefined, { kind: 'create' }, 'me')).toBe(true);
  });

  it('a failed round refuses only on a log full of live entries that lacks this slot, naming it, with the longest Retry-After', () => {
    const now = 5 * HOUR;
    const scopes: SlotScope[] = [
      { log: { kind: 'card', id: 'c' }, limit: 1, window: sliding },
      { log: { kind: 'merchant', id: 'm' }, limit: 1, window: sliding },
    ];
    const known: KnownLog[] = [{ state: 'unknown' }, { state: 'unknown' }];
    const refused = afterFailedRound(
      known,
      new Map<number, Slots | undefined>([
        [1, { x: now - HOUR + 10_000 }],
        [0, { y: now - HOUR + 5_000 }],
      ]),
      scopes,
      'me',
      now,
    );
    expect(refused).toEqual({ refused: { admitted: false, refusedBy: { kind: 'merchant', id: 'm' }, retryAfterSeconds: 10 } });
    expect(afterFailedRound(known, new Map([[0, { me: now - 1 }]]), scopes, 'me', now)).toEqual({
      known: [{ state: 'read', slots: { me: now - 1 } }, { state: 'unknown' }],
    });
    expect(afterFailedRound(known, new Map([[0, undefined]]), scopes, 'me', now)).toEqual({ known: [{ state: 'missing' }, { state: 'unknown' }] });
  });
});

/** A taker in flight: its scopes, slot, request time, what it knows, its round. */
type Taker = { scopes: SlotScope[]; slotId: string; nowMs: number; known: KnownLog[]; round: number; result?: TakeResult | 'contention'; released?: boolean };

const LOGS = [
  { kind: 'card', id: 'c' },
  { kind: 'merchant', id: 'm' },
  { kind: 'checkout', id: 'k' },
] as const;

const windowArb: fc.Arbitrary<SlotWindow> = fc.oneof(
  fc.record({ kind: fc.constant('sliding' as const), ms: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('fixed' as const), ms: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('lifetime' as const), keepMs: fc.constant(1_000) }),
);

type Op = { t: 'start'; logs: number[]; reuse: number | undefined } | { t: 'step'; i: number } | { t: 'release'; i: number } | { t: 'tick'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('start' as const),
      logs: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
      reuse: fc.option(fc.nat(), { nil: undefined }),
    }),
  },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('step' as const), i: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('release' as const), i: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 30 }) }) },
);

describe('attempt slots: a property over every interleaving', () => {
  it('concurrent takes (stale reads, prunes, retries of a slot, releases, time passing) never hold more than the limit in any window, and lose no admitted slot', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
        fc.array(windowArb, { minLength: 3, maxLength: 3 }),
        fc.array(opArb, { minLength: 1, maxLength: 200 }),
        (limits, windows, ops) => {
          const store = new MemorySlotStore();
          const scopeOf = (i: number): SlotScope => ({ log: { ...LOGS[i] } as SlotScope['log'], limit: limits[i] ?? 1, window: windows[i] ?? sliding });
          const takers: Taker[] = [];
          /** The ghost: per log, the slots admitted and not released, with the time stored for them. */
          const held = new Map<string, Map<string, number>>();
          let clock = 1_000;
          for (const op of ops) {
            if (op.t === 'tick') clock += op.ms;
            if (op.t === 'start' && takers.filter((t) => !t.result).length < 4) {
              const reused = op.reuse === undefined || takers.length === 0 ? undefined : takers[op.reuse % takers.length];
              const slotId = reused ? reused.slotId : `s${takers.length}`;
              takers.push({ scopes: op.logs.map(scopeOf), slotId, nowMs: clock, known: op.logs.map(() => ({ state: 'unknown' })), round: 0 });
            }
            // Steps go to the takers still in flight, so rounds of a few of them interleave densely.
            const inFlight = takers.filter((t) => !t.result);
            if (op.t === 'step' && inFlight.length > 0) {
              const taker = inFlight[op.i % inFlight.length] as Taker;
              const writes = taker.scopes.map((scope, i) => planWrite(taker.known[i] ?? { state: 'unknown' }, scope, taker.slotId, taker.nowMs));
              const before = new Set(taker.scopes.map((s) => slotLogKey(s.log)).filter((key) => store.logs.get(key)?.[taker.slotId] !== undefined));
              const sent = store.round(taker.scopes, writes, taker.slotId, taker.nowMs);
              taker.round += 1;
              if (sent.ok) {
                taker.result = { admitted: true, ticket: { slotId: taker.slotId, logs: taker.scopes.map((s) => s.log) } };
                for (const scope of taker.scopes) {
                  const key = slotLogKey(scope.log);
                  const at = store.logs.get(key)?.[taker.slotId] as number;
                  const ghost = held.get(key) ?? new Map<string, number>();
                  // A retry of a slot still held keeps its first time.
                  if (before.has(key)) expect(ghost.get(taker.slotId) ?? at).toBe(at);
                  ghost.set(taker.slotId, at);
                  held.set(key, ghost);
                }
              } else {
                const next = afterFailedRound(taker.known, sent.failure, taker.scopes, taker.slotId, taker.nowMs);
                if ('refused' in next) taker.result = next.refused;
                else {
                  taker.known = next.known;
                  if (taker.round >= MAX_TAKE_ROUNDS) taker.result = 'contention';
                }
              }
            }
            if (op.t === 'release' && takers.length > 0) {
              const taker = takers[op.i % takers.length] as Taker;
              if (typeof taker.result !== 'object' || !taker.result.admitted) continue;
              const logKeys = taker.scopes.map((s) => slotLogKey(s.log));
              store.release(logKeys, taker.slotId);
              for (const key of logKeys) held.get(key)?.delete(taker.slotId);
            }
            // The guarantee, at every instant: per log, the live entries stored never exceed the limit, and every
            // admitted, unreleased slot still in its window is stored at the time it was admitted (nothing lost).
            for (let i = 0; i < LOGS.length; i += 1) {
              const scope = scopeOf(i);
              const key = slotLogKey(scope.log);
              const stored = store.logs.get(key) ?? {};
              const liveStored = Object.values(stored).filter((at) => !hasLeft(at, clock, scope.window));
              expect(liveStored.length).toBeLessThanOrEqual(scope.limit);
              for (const [slotId, at] of held.get(key) ?? []) {
                if (!hasLeft(at, clock, scope.window)) expect(stored[slotId]).toBe(at);
              }
              const liveHeld = [...(held.get(key) ?? new Map<string, number>()).values()].filter((at) => !hasLeft(at, clock, scope.window));
              expect(liveHeld.length).toBeLessThanOrEqual(scope.limit);
            }
          }
        },
      ),
      {
        numRuns: 300,
        // The race a take must survive, spelled out: two takers read one left entry beside a live one; one prunes it and
        // takes the room; the other's write, planned on the stale read, must fail (and then be refused), not add a third.
        examples: [
          [
            [2, 2, 2],
            [sliding10, sliding10, sliding10],
            [
              { t: 'start', logs: [0], reuse: undefined },
              { t: 'step', i: 0 },
              { t: 'step', i: 0 },
              { t: 'tick', ms: 5 },
              { t: 'start', logs: [0], reuse: undefined },
              { t: 'step', i: 0 },
              { t: 'tick', ms: 6 },
              { t: 'start', logs: [0], reuse: undefined },
              { t: 'start', logs: [0], reuse: undefined },
              { t: 'step', i: 0 },
              { t: 'step', i: 1 },
              { t: 'step', i: 1 },
              { t: 'step', i: 0 },
              { t: 'step', i: 0 },
            ],
          ],
        ],
      },
    );
  });

  it('a refused or abandoned take leaves its slot in none of its logs (all or nothing)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.nat({ max: 8 }), async (cardLimit, merchantLimit, before) => {
        const slots = memoryAttemptSlots();
        const now = new Date(10 * HOUR);
        const card: SlotScope = { log: { kind: 'card', id: 'c' }, limit: cardLimit, window: sliding };
        const merchant: SlotScope = { log: { kind: 'merchant', id: 'm' }, limit: merchantLimit, window: sliding };
        for (let i = 0; i < before; i += 1) await slots.take([merchant], `m${i}`, now);
        const taken = await slots.take([card, merchant], 'me', now);
        const merchantFull = Math.min(before, merchantLimit) >= merchantLimit;
        expect(taken.admitted).toBe(!merchantFull);
        const inCard = slots.store.logs.get(slotLogKey(card.log))?.me !== undefined;
        const inMerchant = slots.store.logs.get(slotLogKey(merchant.log))?.me !== undefined;
        expect(inCard).toBe(taken.admitted);
        expect(inMerchant).toBe(taken.admitted);
      }),
      { numRuns: 100 },
    );
  });

  it('releases free slots: a log full of `limit` takes refuses the next; after any one is released, a new one is admitted; retries of a held slot are admitted and take no second', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.nat(), windowArb, async (limit, pick, window) => {
        const slots = memoryAttemptSlots();
        const now = new Date(10 * HOUR);
        const scope: SlotScope = { log: { kind: 'card', id: 'c' }, limit, window };
        const tickets = [];
        for (let i = 0; i < limit; i += 1) {
          const taken = await slots.take([scope], `s${i}`, now);
          if (!taken.admitted) throw new Error('a free slot refused');
          tickets.push(taken.ticket);
        }
        const refused = await slots.take([scope], 'late', now);
        expect(refused.admitted).toBe(false);
        if (!refused.admitted) expect(refused.refusedBy).toEqual(scope.log);
        // A retry of a held slot: admitted, and the log keeps `limit` entries.
        expect((await slots.take([scope], 's0', now)).admitted).toBe(true);
        expect(Object.keys(slots.store.logs.get(slotLogKey(scope.log)) ?? {})).toHaveLength(limit);
        await slots.release(tickets[pick % limit] as (typeof tickets)[number]);
        expect((await slots.take([scope], 'late', now)).admitted).toBe(true);
        expect((await slots.take([scope], 'later', now)).admitted).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
