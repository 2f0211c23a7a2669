import type { Withdrawal } from '../../shared/domain/withdrawal';

/** A PENDING withdrawal of 100.00 with a fee of 1.50, held (a pending transfer), as the unit tests share it. */
export function heldWithdrawal(overrides: Partial<Withdrawal> = {}): Withdrawal {
  return {
    reference: 'WD-AAAAAAAAAAAA',
    accountId: 'acct_1',
    status: 'PENDING',
    amountCents: 10_000,
    feeCents: 150,
    heldCents: 10_150,
    pixkey: 'maria@example.com',
    keytype: 'EMAIL',
    createdAt: '2026-11-27T12:00:00.000Z',
    ...overrides,
  };
}
