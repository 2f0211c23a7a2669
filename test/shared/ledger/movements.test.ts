import { describe, expect, it } from 'vitest';
import { entryView, LEDGER_ENTRY_TYPES, ledgerEntryItem, newTransactionId } from '../../../shared/ledger/entries';
import { adjustment, movementShard, paymentCredit, paymentReversal, reservationPlanWrites, withdrawalRelease } from '../../../shared/ledger/movements';
import { coverPlan, shardOf } from '../../../shared/ledger/shards';
import { reconciliation } from '../../../shared/ledger/reconcile';
import { BalanceMovedError } from '../../../shared/errors';

const movement = (reference: string) => ({ accountId: 'acct_1', reference, description: `About ${reference}`, at: '2026-11-23T10:00:00.000Z' });

type Entry = { entryType: string; amountCents: number; reference: string; SK: string; entryId: string };
const entriesOf = (writes: ReturnType<typeof paymentCredit>) => writes.filter((w) => w.Put).map((w) => w.Put?.Item as Entry);
const balanceOf = (writes: ReturnType<typeof paymentCredit>) => writes.filter((w) => w.Update?.Key?.SK === 'BALANCE');
/** The signed change a balance write makes (credits, reversals, takes and fills all ADD). */
const deltaOf = (write: ReturnType<typeof paymentCredit>[number]) => {
  const values = write.Update?.ExpressionAttributeValues ?? {};
  return Number(values[':delta'] ?? values[':debit'] ?? values[':fill']);
};
/** A withdrawal's reservation against shards as read (index = shard). */
const reservation = (reference: string, amount: number, fee: number, shards: number[]) => {
  const plan = coverPlan(shards, amount + fee);
  if (!plan) throw new Error('not covered');
  return reservationPlanWrites('t', movement(reference), amount, fee, plan);
};

describe('ledger entries', () => {
  it('ids are txn_ and 24 alphanumerics, all different', () => {
    const ids = new Set(Array.from({ length: 500 }, newTransactionId));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(/^txn_[A-Za-z0-9]{24}$/);
  });

  it("are keyed in their balance shard's partition by time and id, and answered with a signed 2-decimal amount", () => {
    const item = ledgerEntryItem('acct_1', 7, {
      id: 'txn_x',
      type: 'withdrawal_fee',
      amountCents: -150,
      reference: 'WD-1',
      description: 'Fee',
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    expect(item).toMatchObject({ PK: 'LEDGER#acct_1#7', SK: '2026-11-23T10:00:00.000Z#txn_x', type: 'ledger', shard: 7, entryType: 'withdrawal_fee' });
    expect(entryView(item)).toEqual({
      id: 'txn_x',
      type: 'withdrawal_fee',
      amount: '-1.50',
      reference: 'WD-1',
      description: 'Fee',
      created_at: '2026-11-23T10:00:00.000Z',
    });
    expect(LEDGER_ENTRY_TYPES).toEqual(['payment', 'refund', 'withdrawal', 'withdrawal_fee', 'withdrawal_release', 'adjustment']);
  });
});

describe('movements: one balance change and its immutable entries, for one transaction', () => {
  it("a payment credits the total on its reference's shard, with one payment entry in that shard's partition", () => {
    const writes = paymentCredit('t', movement('INV-AAAAAA'), 19_000);
    const shard = shardOf('INV-AAAAAA');
    expect(balanceOf(writes)).toHaveLength(1);
    expect(balanceOf(writes)[0]?.Update?.Key).toEqual({ PK: `BAL#acct_1#${shard}`, SK: 'BALANCE' });
    expect(entriesOf(writes).map((e) => (e as Entry & { PK: string }).PK)).toEqual([`LEDGER#acct_1#${shard}`]);
    expect(balanceOf(writes)[0]?.Update).toMatchObject({ UpdateExpression: 'ADD availableCents :delta', ExpressionAttributeValues: { ':delta': 19_000 } });
    expect(entriesOf(writes).map((e) => [e.entryType, e.amountCents, e.reference])).toEqual([['payment', 19_000, 'INV-AAAAAA']]);
    for (const put of writes.filter((w) => w.Put)) expect(put.Put?.ConditionExpression).toBe('attribute_not_exists(PK)');
  });

  it("a reversal debits the payment's own shard without a condition on the amount (a refund is never refused)", () => {
    const writes = paymentReversal('t', movement('INV-AAAAAA'), 500);
    expect(balanceOf(writes)[0]?.Update?.Key).toEqual(balanceOf(paymentCredit('t', movement('INV-AAAAAA'), 500))[0]?.Update?.Key);
    expect(balanceOf(writes)[0]?.Update?.ExpressionAttributeValues).toEqual({ ':delta': -500 });
    expect(balanceOf(writes)[0]?.Update?.ConditionExpression).toBe('attribute_exists(PK)');
    expect(entriesOf(writes).map((e) => [e.entryType, e.amountCents])).toEqual([['refund', -500]]);
  });

  it('a withdrawal takes amount + fee from the fullest shards, one conditional update per shard, as two entries', () => {
    const shards = Array.from({ length: 16 }, () => 0);
    shards[3] = 6_000;
    shards[9] = 8_000;
    const writes = reservation('WD-1', 10_000, 250, shards);
    const balance = balanceOf(writes);
    expect(balance.map((w) => w.Update?.Key?.PK)).toEqual(['BAL#acct_1#9', 'BAL#acct_1#3']);
    expect(balance.map((w) => w.Update?.ConditionExpression)).toEqual(['availableCents >= :part', 'availableCents >= :part']);
    expect(balance.map((w) => w.Update?.ExpressionAttributeValues)).toEqual([
      { ':debit': -8_000, ':part': 8_000 },
      { ':debit': -2_250, ':part': 2_250 },
    ]);
    // A shard that moved since the read fails its condition: plan again (not "insufficient").
    expect(balance[0]?.onConditionFailed?.()).toBeInstanceOf(BalanceMovedError);
    expect(entriesOf(writes).map((e) => [e.entryType, e.amountCents])).toEqual([
      ['withdrawal', -10_000],
      ['withdrawal_fee', -250],
    ]);
    expect(entriesOf(writes).map((e) => (e as Entry & { PK: string }).PK)).toEqual(Array(2).fill(`LEDGER#acct_1#${movementShard(movement('WD-1'))}`));
    expect(entriesOf(reservation('WD-2', 10_000, 0, shards)).map((e) => e.entryType)).toEqual(['withdrawal']);
  });

  it('a withdrawal fills a negative shard back to zero from the others, so the sum moves by exactly amount + fee', () => {
    const writes = reservation('WD-3', 1_000, 0, [5_000, -700, 0, 200]);
    expect(balanceOf(writes).map((w) => [w.Update?.Key?.PK, deltaOf(w), w.Update?.ConditionExpression])).toEqual([
      ['BAL#acct_1#0', -1_700, 'availableCents >= :part'],
      ['BAL#acct_1#1', 700, 'attribute_exists(PK)'],
    ]);
    expect(() => reservationPlanWrites('t', movement('WD-4'), 1_000, 0, { takes: [{ shard: 0, cents: 900 }], fills: [] })).toThrow();
  });

  it('a release returns amount + fee as one entry; an adjustment moves either way', () => {
    expect(entriesOf(withdrawalRelease('t', movement('WD-1'), 10_000, 250)).map((e) => [e.entryType, e.amountCents])).toEqual([['withdrawal_release', 10_250]]);
    expect(entriesOf(adjustment('t', movement('adj'), -300)).map((e) => [e.entryType, e.amountCents])).toEqual([['adjustment', -300]]);
  });

  it('the balance change always equals the sum of the entries written with it', () => {
    for (const writes of [
      paymentCredit('t', movement('a'), 1),
      paymentReversal('t', movement('b'), 7),
      reservation('c', 99, 1, [40, 70, -5, 0]),
      withdrawalRelease('t', movement('d'), 99, 1),
      adjustment('t', movement('e'), 42),
    ]) {
      const delta = balanceOf(writes).reduce((sum, write) => sum + deltaOf(write), 0);
      expect(entriesOf(writes).reduce((sum, e) => sum + e.amountCents, 0)).toBe(delta);
    }
  });

  it('refuses amounts that are not whole positive cents', () => {
    expect(() => paymentCredit('t', movement('a'), 0)).toThrow();
    expect(() => paymentCredit('t', movement('a'), 1.5)).toThrow();
    expect(() => reservation('a', 100, -1, [1_000])).toThrow();
    expect(() => adjustment('t', movement('a'), 0)).toThrow();
  });
});

describe('reconciliation', () => {
  it('reports balance, ledger sum and their difference as 2-decimal strings', () => {
    expect(reconciliation('acct_1', 10_000, 10_000)).toEqual({ account_id: 'acct_1', balance: '100.00', ledger_sum: '100.00', difference: '0.00', ok: true });
    expect(reconciliation('acct_1', 10_000, 10_150)).toEqual({ account_id: 'acct_1', balance: '100.00', ledger_sum: '101.50', difference: '-1.50', ok: false });
  });
});
