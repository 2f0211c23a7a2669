import { describe, expect, it } from 'vitest';
import { reconciliation } from '../../../shared/domain/reconciliation';

describe('reconciliation', () => {
  it('reports each balance, its ledger sum and their difference as 2-decimal strings; ok only when both agree', () => {
    expect(reconciliation('acct_1', { availableCents: 10_000, reservedCents: 250 }, { availableCents: 10_000, reservedCents: 250 })).toEqual({
      account_id: 'acct_1',
      balance: '100.00',
      ledger_sum: '100.00',
      difference: '0.00',
      reserved: '2.50',
      reserved_ledger_sum: '2.50',
      reserved_difference: '0.00',
      ok: true,
    });
    expect(reconciliation('acct_1', { availableCents: 10_000, reservedCents: 0 }, { availableCents: 10_150, reservedCents: 0 })).toMatchObject({
      difference: '-1.50',
      ok: false,
    });
    expect(reconciliation('acct_1', { availableCents: 10_000, reservedCents: 1_000 }, { availableCents: 10_000, reservedCents: 0 })).toMatchObject({
      difference: '0.00',
      reserved_difference: '10.00',
      ok: false,
    });
  });
});
