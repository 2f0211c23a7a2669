import { describe, expect, it } from 'vitest';
import { reserveWithdrawal, type ReserveWithdrawalRequest } from '../../../../shared/app/withdrawals/reserve-withdrawal';
import { coverPlan } from '../../../../shared/domain/ledger-shards';
import { type Movement, withdrawalHold } from '../../../../shared/domain/ledger';
import { InsufficientBalanceError, ValidationError } from '../../../../shared/domain/errors';
import type { BalancePort } from '../../../../shared/ports/withdrawals';
import { WITHDRAW_LIMIT_CENTS } from '../../../../shared/domain/withdrawal-fee';
import { heldWithdrawal } from '../../../support/withdrawals';

/** A balance of one shard holding `cents`: plans as the adapter does, over the shards as read. */
function balanceOf(cents: number): BalancePort & { asked: Movement[] } {
  const asked: Movement[] = [];
  return {
    asked,
    async planHold(movement, amountCents, feeCents) {
      asked.push(movement);
      const plan = coverPlan([cents], amountCents + feeCents);
      if (!plan) throw new InsufficientBalanceError();
      return withdrawalHold(movement, amountCents, feeCents, plan);
    },
  };
}

const request: ReserveWithdrawalRequest = {
  accountId: 'acct_1',
  feeCents: 150,
  amountCents: 10_000,
  pixkey: 'maria@example.com',
  keytype: 'EMAIL',
  description: 'Fornecedor',
  bank: 'simulated',
  reference: 'WD-AAAAAAAAAAAA',
  now: new Date('2026-11-27T12:00:00.000Z'),
};

describe('reserve a withdrawal (use case)', () => {
  it('holds amount + fee and creates the PENDING withdrawal, as two changes of one transaction', async () => {
    const balance = balanceOf(50_000);
    const { answer, changes } = await reserveWithdrawal({ balance }, request);
    expect(answer).toEqual(heldWithdrawal({ description: 'Fornecedor', bank: 'simulated' }));
    expect(changes.map((change) => change.kind)).toEqual(['ledger.transfer', 'withdrawal.created']);
    const [hold] = changes;
    expect(hold?.kind === 'ledger.transfer' && hold.phase).toBe('pending');
    expect(hold?.kind === 'ledger.transfer' && hold.entries.map((e) => [e.type, e.availableCents, e.reservedCents])).toEqual([
      ['withdrawal', -10_000, 10_000],
      ['withdrawal_fee', -150, 150],
    ]);
    expect(changes[1]).toEqual({ kind: 'withdrawal.created', withdrawal: answer });
    expect(balance.asked).toEqual([
      { accountId: 'acct_1', reference: 'WD-AAAAAAAAAAAA', description: 'Pix withdrawal WD-AAAAAAAAAAAA', at: '2026-11-27T12:00:00.000Z' },
    ]);
  });

  it('refuses more than one withdrawal may hold (422 on amount) before reading the balance; a balance that does not cover it is 400', async () => {
    const balance = balanceOf(Number.MAX_SAFE_INTEGER);
    const over = reserveWithdrawal({ balance }, { ...request, amountCents: WITHDRAW_LIMIT_CENTS, feeCents: 150 });
    await expect(over).rejects.toBeInstanceOf(ValidationError);
    expect(balance.asked).toEqual([]);
    await expect(reserveWithdrawal({ balance: balanceOf(10_149) }, request)).rejects.toBeInstanceOf(InsufficientBalanceError);
  });
});
