import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjustment,
  LEDGER_ENTRY_TYPES,
  type LedgerTransfer,
  movementShard,
  paymentCredit,
  paymentReversal,
  withdrawalHold,
  withdrawalPost,
  withdrawalVoid,
} from '../../../shared/domain/ledger';
import { coverPlan, shardOf } from '../../../shared/domain/ledger-shards';

const movement = (reference: string) => ({ accountId: 'acct_1', reference, description: `About ${reference}`, at: '2026-11-23T10:00:00.000Z' });

/** A withdrawal's hold against shards as read (index = shard). */
const hold = (reference: string, amount: number, fee: number, shards: number[]) => {
  const plan = coverPlan(shards, amount + fee);
  if (!plan) throw new Error('not covered');
  return withdrawalHold({ ...movement(reference), shards: shards.length }, amount, fee, plan);
};

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const entriesOf = (t: LedgerTransfer) => t.entries.map((e) => [e.type, e.availableCents, e.reservedCents]);

describe('ledger transfers: typed facts, one per balance movement', () => {
  it('names the entry types, the withdrawal phases among them', () => {
    expect(LEDGER_ENTRY_TYPES).toEqual(['payment', 'refund', 'withdrawal', 'withdrawal_fee', 'withdrawal_posted', 'withdrawal_release', 'adjustment']);
  });

  it("a payment credits the total on its reference's shard, one payment entry in that shard", () => {
    const shard = shardOf('INV-AAAAAA');
    expect(paymentCredit(movement('INV-AAAAAA'), 19_000, 'pix')).toEqual({
      kind: 'ledger.transfer',
      phase: 'single',
      accountId: 'acct_1',
      reference: 'INV-AAAAAA',
      at: '2026-11-23T10:00:00.000Z',
      entryShard: shard,
      shards: [{ shard, availableCents: 19_000, reservedCents: 0 }],
      entries: [{ type: 'payment', availableCents: 19_000, reservedCents: 0, description: 'About INV-AAAAAA', method: 'pix' }],
    });
  });

  it("a reversal debits the payment's own shard, with no cover (a refund is never refused)", () => {
    const reversal = paymentReversal(movement('INV-AAAAAA'), 500);
    expect(reversal.shards).toEqual([{ shard: shardOf('INV-AAAAAA'), availableCents: -500, reservedCents: 0 }]);
    expect(entriesOf(reversal)).toEqual([['refund', -500, 0]]);
  });

  it('a withdrawal is held (PENDING): taken from the fullest shards, each covered, and reserved on its own shard', () => {
    const shards = Array.from({ length: 16 }, () => 0);
    shards[3] = 6_000;
    shards[9] = 8_000;
    const held = hold('WD-1', 10_000, 250, shards);
    const home = movementShard(movement('WD-1'));
    expect(held.phase).toBe('pending');
    expect(held.shards.filter((s) => s.cover !== undefined)).toEqual([
      { shard: 9, availableCents: -8_000, reservedCents: home === 9 ? 10_250 : 0, cover: 8_000 },
      { shard: 3, availableCents: -2_250, reservedCents: home === 3 ? 10_250 : 0, cover: 2_250 },
    ]);
    expect(sum(held.shards.map((s) => s.reservedCents))).toBe(10_250);
    expect(held.shards.find((s) => s.shard === home)?.reservedCents).toBe(10_250);
    expect(entriesOf(held)).toEqual([
      ['withdrawal', -10_000, 10_000],
      ['withdrawal_fee', -250, 250],
    ]);
    expect(held.entryShard).toBe(home);
    expect(entriesOf(hold('WD-2', 10_000, 0, shards))).toEqual([['withdrawal', -10_000, 10_000]]);
  });

  it("a hold whose reference's shard is also taken from changes that shard once (one item per transaction)", () => {
    const home = movementShard(movement('WD-HOME'));
    const shards = Array.from({ length: 16 }, (_, k) => (k === home ? 5_000 : 0));
    expect(hold('WD-HOME', 1_000, 0, shards).shards).toEqual([{ shard: home, availableCents: -1_000, reservedCents: 1_000, cover: 1_000 }]);
  });

  it('a hold fills a negative shard back to zero from the others, so the available sum moves by exactly amount + fee', () => {
    const held = hold('WD-3', 1_000, 0, [5_000, -700, 0, 200]);
    expect(held.shards.filter((s) => s.availableCents !== 0)).toEqual([
      { shard: 0, availableCents: -1_700, reservedCents: held.entryShard === 0 ? 1_000 : 0, cover: 1_700 },
      { shard: 1, availableCents: 700, reservedCents: held.entryShard === 1 ? 1_000 : 0 },
    ]);
    expect(() => withdrawalHold(movement('WD-4'), 1_000, 0, { takes: [{ shard: 0, cents: 900 }], fills: [] })).toThrow();
  });

  it('the bank paying POSTS the hold (reserved −, available untouched); refusing VOIDS it (reserved −, available +)', () => {
    const home = movementShard(movement('WD-1'));
    const posted = withdrawalPost(movement('WD-1'), 10_000, 250);
    expect(posted.phase).toBe('posted');
    expect(posted.shards).toEqual([{ shard: home, availableCents: 0, reservedCents: -10_250 }]);
    expect(entriesOf(posted)).toEqual([['withdrawal_posted', 0, -10_250]]);
    const voided = withdrawalVoid(movement('WD-1'), 10_000, 250);
    expect(voided.phase).toBe('voided');
    expect(voided.shards).toEqual([{ shard: home, availableCents: 10_250, reservedCents: -10_250 }]);
    expect(entriesOf(voided)).toEqual([['withdrawal_release', 10_250, -10_250]]);
  });

  it('a withdrawal reserved before holds existed is voided on the available balance alone', () => {
    expect(entriesOf(withdrawalVoid(movement('WD-OLD'), 10_000, 250, false))).toEqual([['withdrawal_release', 10_250, 0]]);
  });

  it('an adjustment moves either way and names an unknown account when the shard is missing', () => {
    expect(entriesOf(adjustment(movement('adj'), -300))).toEqual([['adjustment', -300, 0]]);
    expect(adjustment(movement('adj'), 300).ifShardMissing).toBe('account_not_found');
    expect(paymentCredit(movement('a'), 1, 'pix').ifShardMissing).toBeUndefined();
  });

  it('refuses amounts that are not whole positive cents', () => {
    expect(() => paymentCredit(movement('a'), 0, 'pix')).toThrow();
    expect(() => paymentCredit(movement('a'), 1.5, 'pix')).toThrow();
    expect(() => hold('a', 100, -1, [1_000])).toThrow();
    expect(() => withdrawalPost(movement('a'), 0, 0)).toThrow();
    expect(() => adjustment(movement('a'), 0)).toThrow();
  });

  it('every transfer changes both balances by exactly its entries; a withdrawal held then answered leaves nothing reserved', () => {
    const arbShards = fc.array(fc.integer({ min: -5_000, max: 50_000 }), { minLength: 1, maxLength: 16 });
    fc.assert(
      fc.property(arbShards, fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 0, max: 500 }), fc.boolean(), (shards, amount, fee, paid) => {
        const plan = coverPlan(shards, amount + fee);
        if (!plan) return;
        const m = { ...movement('WD-P'), shards: shards.length };
        const transfers = [withdrawalHold(m, amount, fee, plan), paid ? withdrawalPost(m, amount, fee) : withdrawalVoid(m, amount, fee)];
        for (const t of transfers) {
          expect(sum(t.shards.map((s) => s.availableCents))).toBe(sum(t.entries.map((e) => e.availableCents)));
          expect(sum(t.shards.map((s) => s.reservedCents))).toBe(sum(t.entries.map((e) => e.reservedCents)));
          expect(new Set(t.shards.map((s) => s.shard)).size).toBe(t.shards.length);
        }
        expect(sum(transfers.flatMap((t) => t.shards.map((s) => s.reservedCents)))).toBe(0);
        expect(sum(transfers.flatMap((t) => t.shards.map((s) => s.availableCents)))).toBe(paid ? -(amount + fee) : 0);
      }),
    );
  });
});
