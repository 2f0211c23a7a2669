import { describe, expect, it } from 'vitest';
import { adjustment, movementShard, paymentCredit, withdrawalHold, withdrawalPost } from '../../../../shared/domain/ledger';
import { ledgerEntryItem, ledgerEntryOf, newTransactionId, transferWrites } from '../../../../shared/adapters/dynamo/ledger';
import { AccountNotFoundError, BalanceMovedError } from '../../../../shared/domain/errors';
import { entryView } from '../../../../shared/http/views/ledger-view';

const movement = (reference: string) => ({ accountId: 'acct_1', reference, description: `About ${reference}`, at: '2026-11-23T10:00:00.000Z' });
let n = 0;
const ids = () => `txn_${String((n += 1)).padStart(24, '0')}`;

describe('ledger entries as items', () => {
  it('ids are txn_ and 24 alphanumerics, all different', () => {
    const drawn = new Set(Array.from({ length: 500 }, newTransactionId));
    expect(drawn.size).toBe(500);
    for (const id of drawn) expect(id).toMatch(/^txn_[A-Za-z0-9]{24}$/);
  });

  it("are keyed in their balance shard's partition by time and id; read back as the record; answered with signed 2-decimal parts", () => {
    const entry = {
      id: 'txn_x',
      type: 'withdrawal_fee' as const,
      availableCents: -150,
      reservedCents: 150,
      reference: 'WD-1',
      description: 'Fee',
      createdAt: '2026-11-23T10:00:00.000Z',
    };
    const item = ledgerEntryItem('acct_1', 7, entry);
    expect(item).toMatchObject({
      PK: 'LEDGER#acct_1#7',
      SK: '2026-11-23T10:00:00.000Z#txn_x',
      type: 'ledger',
      shard: 7,
      entryType: 'withdrawal_fee',
      amountCents: -150,
      reservedCents: 150,
    });
    expect(ledgerEntryOf(item)).toEqual(entry);
    expect(entryView(ledgerEntryOf(item))).toEqual({
      id: 'txn_x',
      type: 'withdrawal_fee',
      amount: '-1.50',
      reserved: '1.50',
      reference: 'WD-1',
      description: 'Fee',
      created_at: '2026-11-23T10:00:00.000Z',
    });
    // An entry without a reserved part (every one before holds) stores none and reads back 0.
    const credit = ledgerEntryItem('acct_1', 1, { ...entry, type: 'payment', availableCents: 100, reservedCents: 0 });
    expect(credit).not.toHaveProperty('reservedCents');
    expect(ledgerEntryOf(credit).reservedCents).toBe(0);
  });
});

describe('transfers compiled into one transaction', () => {
  it('a credit: one unconditional ADD on its shard (which must exist) and one put per entry, never overwriting', () => {
    const writes = transferWrites('t', paymentCredit(movement('INV-AAAAAA'), 19_000, 'boleto'), ids);
    const shard = movementShard(movement('INV-AAAAAA'));
    expect(writes[0]?.Update).toEqual({
      TableName: 't',
      Key: { PK: `BAL#acct_1#${shard}`, SK: 'BALANCE' },
      UpdateExpression: 'ADD availableCents :available',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':available': 19_000 },
    });
    expect(writes[0]?.onConditionFailed).toBeUndefined();
    expect(
      writes.slice(1).map((w) => [w.Put?.Item?.PK, w.Put?.Item?.entryType, w.Put?.Item?.amountCents, w.Put?.Item?.method, w.Put?.ConditionExpression]),
    ).toEqual([[`LEDGER#acct_1#${shard}`, 'payment', 19_000, 'boleto', 'attribute_not_exists(PK)']]);
    // The entry read back keeps its method (the panel's overview sums by it); an entry without one reads as none.
    expect(ledgerEntryOf(writes[1]?.Put?.Item ?? {}).method).toBe('boleto');
    expect(ledgerEntryOf({ ...writes[1]?.Put?.Item, method: undefined }).method).toBeUndefined();
  });

  it('a hold: each covered take conditional on its part (a shard that moved: BalanceMovedError), the reserved part added once', () => {
    const home = movementShard(movement('WD-1'));
    const other = (home + 1) % 16;
    const writes = transferWrites('t', withdrawalHold(movement('WD-1'), 1_000, 50, { takes: [{ shard: other, cents: 1_050 }], fills: [] }), ids);
    const updates = writes.filter((w) => w.Update);
    expect(updates.map((w) => [w.Update?.Key?.PK, w.Update?.UpdateExpression, w.Update?.ConditionExpression, w.Update?.ExpressionAttributeValues])).toEqual([
      [`BAL#acct_1#${other}`, 'ADD availableCents :available', 'availableCents >= :cover', { ':available': -1_050, ':cover': 1_050 }],
      [`BAL#acct_1#${home}`, 'ADD reservedCents :reserved', 'attribute_exists(PK)', { ':reserved': 1_050 }],
    ]);
    expect(updates[0]?.onConditionFailed?.()).toBeInstanceOf(BalanceMovedError);
    expect(writes.filter((w) => w.Put).map((w) => [w.Put?.Item?.entryType, w.Put?.Item?.amountCents, w.Put?.Item?.reservedCents])).toEqual([
      ['withdrawal', -1_000, 1_000],
      ['withdrawal_fee', -50, 50],
    ]);
  });

  it('a posting changes only the reserved balance; an adjustment on a missing shard is an unknown account', () => {
    const posted = transferWrites('t', withdrawalPost(movement('WD-1'), 1_000, 50), ids);
    expect(posted[0]?.Update?.UpdateExpression).toBe('ADD reservedCents :reserved');
    expect(posted[0]?.Update?.ExpressionAttributeValues).toEqual({ ':reserved': -1_050 });
    const adjusted = transferWrites('t', adjustment(movement('adj_1'), 300), ids);
    expect(adjusted[0]?.onConditionFailed?.()).toBeInstanceOf(AccountNotFoundError);
  });
});
