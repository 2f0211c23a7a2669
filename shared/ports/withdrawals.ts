import type { LedgerTransfer, Movement } from '../domain/ledger';
import type { Withdrawal } from '../domain/withdrawal';
import type { WithdrawStatus } from '../domain/withdrawal-transitions';

export const WITHDRAW_PAGE_SIZE = 25;

export type WithdrawListQuery = { page: number; start?: string; end?: string; status?: WithdrawStatus };

/** The withdrawals as stored (shared/adapters/dynamo/withdrawals.ts). */
export interface WithdrawalStore {
  /** One withdrawal by its reference (strongly consistent), or undefined. */
  get(reference: string): Promise<Withdrawal | undefined>;
  /** The account's withdrawals, newest first, WITHDRAW_PAGE_SIZE a page; dates are Brazil days, inclusive. */
  list(accountId: string, query: WithdrawListQuery): Promise<Withdrawal[]>;
  /** The bank was asked to pay it: recorded once (the first time), and the withdrawal leaves the sweep's index. */
  markBankRequested(reference: string, at: string): Promise<void>;
}

/** The balance as a withdrawal's reservation needs it. */
export interface BalancePort {
  /** A withdrawal's hold planned on the shards as read; InsufficientBalanceError when the available balance does not cover it. */
  planHold(movement: Movement, amountCents: number, feeCents: number): Promise<LedgerTransfer>;
}
