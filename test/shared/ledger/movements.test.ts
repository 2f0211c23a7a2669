import { describe, expect, it } from 'vitest';
import { entryView, LEDGER_ENTRY_TYPES, ledgerEntryItem, newTransactionId } from '../../../shared/ledger/entries';
import { adjustment, paymentCredit, paymentReversal, withdrawalRelease, withdrawalReservation } from '../../../shared/ledger/movements';
import { reconciliation } from '../../../shared/ledger/reconcile';
import { InsufficientBalanceError } from '../../../shared/errors';

const movement = (reference: string) => ({ accountId: 'acct_1', reference, description: `About ${reference}`, at: '2026-11-23T10:00:00.000Z' });

type Entry = { entryType: string; amountCents: number; reference: string; SK: string; entryId: string };
const entriesOf = (writes: ReturnType<typeof paymentCredit>) => writes.filter((w) => w.Put).map((w) => w.Put?.Item as Entry);
const balanceOf = (writes: ReturnType<typeof paymentCredit>) => writes.filter((w) => w.Update?.Key?.SK === 'BALANCE');

describe('ledger entries', () => {
  it('ids are txn_ and 24 alphanumerics, all different', () => {
    const ids = new Set(Array.from({ length: 500 }, newTransactionId));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(/^txn_[A-Za-z0-9]{24}$/);
  });

  it('are keyed in the account partition by time and id, and answered with a signed 2-decimal amount', () => {
    const item = ledgerEntryItem('acct_1', {
      id: 'txn_x',
      type: 'withdrawal_fee',
      amountCents: -150,
      reference: 'WD-1',
      description: 'Fee',
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    expect(item).toMatchObject({ PK: 'ACCT#acct_1', SK: 'LEDGER#2026-11-23T10:00:00.000Z#txn_x', type: 'ledger', entryType: 'withdrawal_fee' });
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
  it('a payment credits the total with one payment entry', () => {
    const writes = paymentCredit('t', movement('INV-AAAAAA'), 19_000);
    expect(balanceOf(writes)).toHaveLength(1);
    expect(balanceOf(writes)[0]?.Update).toMatchObject({ UpdateExpression: 'ADD availableCents :delta', ExpressionAttributeValues: { ':delta': 19_000 } });
    expect(entriesOf(writes).map((e) => [e.entryType, e.amountCents, e.reference])).toEqual([['payment', 19_000, 'INV-AAAAAA']]);
    for (const put of writes.filter((w) => w.Put)) expect(put.Put?.ConditionExpression).toBe('attribute_not_exists(PK)');
  });

  it('a reversal debits without a condition on the amount (a refund is never refused)', () => {
    const writes = paymentReversal('t', movement('INV-AAAAAA'), 500);
    expect(balanceOf(writes)[0]?.Update?.ExpressionAttributeValues).toEqual({ ':delta': -500 });
    expect(balanceOf(writes)[0]?.Update?.ConditionExpression).toBe('attribute_exists(PK)');
    expect(entriesOf(writes).map((e) => [e.entryType, e.amountCents])).toEqual([['refund', -500]]);
  });

  it('a withdrawal reserves amount + fee only when covered, as two entries', () => {
    const writes = withdrawalReservation('t', movement('WD-1'), 10_000, 250);
    const [balance] = balanceOf(writes);
    expect(balance?.Update).toMatchObject({ ConditionExpression: 'availableCents >= :debit', ExpressionAttributeValues: { ':debit': 10_250 } });
    expect(balance?.onConditionFailed?.()).toBeInstanceOf(InsufficientBalanceError);
    expect(entriesOf(writes).map((e) => [e.entryType, e.amountCents])).toEqual([
      ['withdrawal', -10_000],
      ['withdrawal_fee', -250],
    ]);
    expect(entriesOf(withdrawalReservation('t', movement('WD-2'), 10_000, 0)).map((e) => e.entryType)).toEqual(['withdrawal']);
  });

  it('a release returns amount + fee as one entry; an adjustment moves either way', () => {
    expect(entriesOf(withdrawalRelease('t', movement('WD-1'), 10_000, 250)).map((e) => [e.entryType, e.amountCents])).toEqual([['withdrawal_release', 10_250]]);
    expect(entriesOf(adjustment('t', movement('adj'), -300)).map((e) => [e.entryType, e.amountCents])).toEqual([['adjustment', -300]]);
  });

  it('the balance change always equals the sum of the entries written with it', () => {
    for (const writes of [
      paymentCredit('t', movement('a'), 1),
      paymentReversal('t', movement('b'), 7),
      withdrawalReservation('t', movement('c'), 99, 1),
      withdrawalRelease('t', movement('d'), 99, 1),
      adjustment('t', movement('e'), 42),
    ]) {
      const values = balanceOf(writes)[0]?.Update?.ExpressionAttributeValues ?? {};
      const delta = ':debit' in values ? -Number(values[':debit']) : Number(values[':delta']);
      expect(entriesOf(writes).reduce((sum, e) => sum + e.amountCents, 0)).toBe(delta);
    }
  });

  it('refuses amounts that are not whole positive cents', () => {
    expect(() => paymentCredit('t', movement('a'), 0)).toThrow();
    expect(() => paymentCredit('t', movement('a'), 1.5)).toThrow();
    expect(() => withdrawalReservation('t', movement('a'), 100, -1)).toThrow();
    expect(() => adjustment('t', movement('a'), 0)).toThrow();
  });
});

describe('reconciliation', () => {
  it('reports balance, ledger sum and their difference as 2-decimal strings', () => {
    expect(reconciliation('acct_1', 10_000, 10_000)).toEqual({ account_id: 'acct_1', balance: '100.00', ledger_sum: '100.00', difference: '0.00', ok: true });
    expect(reconciliation('acct_1', 10_000, 10_150)).toEqual({ account_id: 'acct_1', balance: '100.00', ledger_sum: '101.50', difference: '-1.50', ok: false });
  });
});
