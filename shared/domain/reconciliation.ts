import { formatCents } from './money';

/**
 * One account's reconciliation (what `account reconcile` prints and the daily run checks): each of its
 * two balances against the sum of its ledger entries. `balance`/`ledger_sum`/`difference` are the
 * available balance; `reserved`/`reserved_ledger_sum`/`reserved_difference` the money withdrawals hold
 * (their pending transfers). `ok` only when both differences are zero.
 */
export type Reconciliation = {
  account_id: string;
  balance: string;
  ledger_sum: string;
  difference: string;
  reserved: string;
  reserved_ledger_sum: string;
  reserved_difference: string;
  ok: boolean;
};

/** Two sums in cents: the available and the reserved balance (or the entries' parts of each). */
export type BalanceSums = { availableCents: number; reservedCents: number };

export function reconciliation(accountId: string, balance: BalanceSums, ledger: BalanceSums): Reconciliation {
  const difference = balance.availableCents - ledger.availableCents;
  const reservedDifference = balance.reservedCents - ledger.reservedCents;
  return {
    account_id: accountId,
    balance: formatCents(balance.availableCents),
    ledger_sum: formatCents(ledger.availableCents),
    difference: formatCents(difference),
    reserved: formatCents(balance.reservedCents),
    reserved_ledger_sum: formatCents(ledger.reservedCents),
    reserved_difference: formatCents(reservedDifference),
    ok: difference === 0 && reservedDifference === 0,
  };
}
