import { type ChangeCompilers, commitMove, eventCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { ledgerCompilers } from '../adapters/dynamo/ledger';
import { dynamoBalance, dynamoWithdrawals, withdrawalCompilers } from '../adapters/dynamo/withdrawals';
import type { Change, ChangeScope } from '../domain/changes';
import { newEvent } from '../platform/outbox-event';
import type { BalancePort, WithdrawalStore } from '../ports/withdrawals';
import type { Runtime } from './runtime';
import { compileContext } from './compile';

/** The changes of the withdrawals' use cases: the transfer's phases, the withdrawal created or moved, its event. */
export const withdrawalChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(ledgerCompilers, withdrawalCompilers, eventCompilers);

/** The withdrawals over the runtime's table (reading, listing, the payout worker's bank request). */
export function withdrawalStore(runtime: Runtime): WithdrawalStore {
  return dynamoWithdrawals(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).personalData);
}

/** The withdrawal ports over the runtime's table; `scope`: the route or worker that commits (its row names what it may change). */
export function withdrawalPorts(
  runtime: Runtime,
  scope: ChangeScope,
): {
  withdrawals: WithdrawalStore;
  balance: BalancePort;
  newEvent: typeof newEvent;
  /** Commits a state move's changes in one transaction; false when the move was already made (nothing written). */
  commitMove: (changes: readonly Change[]) => Promise<boolean>;
} {
  return {
    withdrawals: withdrawalStore(runtime),
    balance: dynamoBalance(runtime.db, runtime.config.tableName),
    newEvent,
    commitMove: (changes) => commitMove(runtime.db, compileContext(runtime, scope), changes, withdrawalChanges),
  };
}
