import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withdrawalCreatedWrite, withdrawalItem, withdrawalMovedWrite, withdrawalOf } from '../../../../shared/adapters/dynamo/withdrawals';
import { MoveAlreadyMade } from '../../../../shared/adapters/dynamo/state-move';
import { IdClashError } from '../../../../shared/domain/errors';
import { heldWithdrawal } from '../../../support/withdrawals';

const key = randomBytes(32);
const withdrawal = heldWithdrawal({ pixkey: '52998224725', keytype: 'CPF', document: '52998224725', description: 'Fornecedor', bank: 'simulated' });

describe('withdraw items', () => {
  it('are keyed, listed by account and swept; the Pix key and the document are stored sealed, never in clear', () => {
    const item = withdrawalItem(withdrawal, key);
    expect(item).toMatchObject({
      PK: 'WD#WD-AAAAAAAAAAAA',
      SK: 'WITHDRAW',
      GSI1PK: 'ACCT#acct_1#WITHDRAWALS',
      GSI1SK: '2026-11-27T12:00:00.000Z#WD-AAAAAAAAAAAA',
      type: 'withdraw',
      status: 'PENDING',
      heldCents: 10_150,
    });
    expect(String(item.GSI2PK)).toMatch(/^SWEEP#\d$/);
    expect(JSON.stringify(item)).not.toContain('52998224725');
    expect(item).not.toHaveProperty('pixkey');
    expect(item).not.toHaveProperty('document');
  });

  it('read back as the record: the Pix key unsealed, the document never', () => {
    const { document: _document, ...readable } = withdrawal;
    // A new withdraw is stored at version 1 (issue 29).
    expect(withdrawalOf(withdrawalItem(withdrawal, key), key)).toEqual({ ...readable, version: 1 });
    // Items written before keys were sealed, or before holds, read as they were.
    const old = { ...withdrawalItem(withdrawal, key), pixkey: 'old@example.com', pixkeySealed: undefined, heldCents: undefined };
    expect(withdrawalOf(old, key)).toMatchObject({ pixkey: 'old@example.com' });
    expect(withdrawalOf(old, key)).not.toHaveProperty('heldCents');
  });

  it('a creation never overwrites (a taken reference: draw again); a move holds only from its from-status', () => {
    const created = withdrawalCreatedWrite('t', { kind: 'withdrawal.created', withdrawal }, key);
    expect(created.Put?.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(created.onConditionFailed?.()).toBeInstanceOf(IdClashError);
    const moved = withdrawalMovedWrite('t', {
      kind: 'withdrawal.moved',
      reference: withdrawal.reference,
      from: 'PENDING',
      to: 'PAID',
      version: 2,
      at: 'T',
      endToEndId: 'E1',
    });
    expect(moved.Update).toMatchObject({
      Key: { PK: 'WD#WD-AAAAAAAAAAAA', SK: 'WITHDRAW' },
      UpdateExpression: 'SET #status = :to, paidAt = :at, endToEndId = :e2e, #version = :version',
      ConditionExpression: '#status = :from',
      ExpressionAttributeValues: { ':to': 'PAID', ':from': 'PENDING', ':at': 'T', ':e2e': 'E1', ':version': 2 },
    });
    expect(moved.onConditionFailed?.()).toBeInstanceOf(MoveAlreadyMade);
    const canceled = withdrawalMovedWrite('t', {
      kind: 'withdrawal.moved',
      reference: withdrawal.reference,
      from: 'PENDING',
      to: 'CANCELED',
      version: 2,
      at: 'T',
    });
    expect(canceled.Update?.UpdateExpression).toBe('SET #status = :to, canceledAt = :at, #version = :version');
  });
});
