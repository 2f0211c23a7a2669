import { describe, expect, it } from 'vitest';
import { RAIL_LIMIT_CENTS } from '../../../shared/domain/rail-limits';
import {
  WITHDRAW_LIMIT_CENTS,
  withdrawalOverLimit,
  withdrawalReserveCents,
  withdrawFeeCentsOf,
  withdrawFeeProblem,
} from '../../../shared/domain/withdrawal-fee';

describe('the withdrawal fee rule', () => {
  it('caps one withdrawal (amount + fee) at the boleto ceiling, R$ 99,999,999.99', () => {
    expect(WITHDRAW_LIMIT_CENTS).toBe(RAIL_LIMIT_CENTS.boleto);
    expect(WITHDRAW_LIMIT_CENTS).toBe(9_999_999_999);
  });

  it('reserves the amount plus the fee', () => {
    expect(withdrawalReserveCents(2550, 150)).toBe(2700);
    expect(withdrawalReserveCents(1, 0)).toBe(1);
  });

  it('accepts an amount whose reservation reaches the limit exactly, and names the fee when one cent more does not fit', () => {
    expect(withdrawalOverLimit(WITHDRAW_LIMIT_CENTS - 150, 150)).toBeUndefined();
    expect(withdrawalOverLimit(WITHDRAW_LIMIT_CENTS, 0)).toBeUndefined();
    expect(withdrawalOverLimit(WITHDRAW_LIMIT_CENTS - 149, 150)).toBe('The amount plus the withdrawal fee (1.50) must be at most 99999999.99');
    expect(withdrawalOverLimit(WITHDRAW_LIMIT_CENTS + 1, 0)).toBe('The amount plus the withdrawal fee (0.00) must be at most 99999999.99');
  });

  it('allows a fee of zero or whole positive cents below the limit, and refuses the rest', () => {
    expect(withdrawFeeProblem(0)).toBeUndefined();
    expect(withdrawFeeProblem(150)).toBeUndefined();
    expect(withdrawFeeProblem(WITHDRAW_LIMIT_CENTS - 1)).toBeUndefined();
    expect(withdrawFeeProblem(WITHDRAW_LIMIT_CENTS)).toMatch(/below 99999999\.99/);
    expect(withdrawFeeProblem(-1)).toMatch(/zero or a positive amount in whole cents/);
    expect(withdrawFeeProblem(1.5)).toMatch(/whole cents/);
    expect(withdrawFeeProblem(Number.NaN)).toMatch(/whole cents/);
  });

  it("reads an account's stored fee: none stored is 0, a broken one is an error rather than a guess", () => {
    expect(withdrawFeeCentsOf(undefined)).toBe(0);
    expect(withdrawFeeCentsOf({})).toBe(0);
    expect(withdrawFeeCentsOf({ withdrawFeeCents: 150 })).toBe(150);
    expect(() => withdrawFeeCentsOf({ withdrawFeeCents: '150' })).toThrow(/Stored withdrawal fee is invalid/);
    expect(() => withdrawFeeCentsOf({ withdrawFeeCents: -5 })).toThrow(/Stored withdrawal fee is invalid/);
  });
});
