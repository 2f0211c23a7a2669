import type { Reconciliation } from '../domain/reconciliation';

/** The accounts and their ledger as the daily reconciliation reads them (shared/adapters/dynamo/account-index.ts, ledger-reconcile.ts). */
export interface ReconcileStore {
  /** How many partitions the account index has: the run sends one first message per partition. */
  readonly partitions: number;
  /** One page of at most `limit` account ids of a partition, from `cursor`; `next` when the partition has more. */
  accountIds(partition: number, cursor: string | undefined, limit: number): Promise<{ accountIds: string[]; next: string | undefined }>;
  /** One account's balance against the sum of its ledger entries; undefined when the account is gone. */
  reconcile(accountId: string): Promise<Reconciliation | undefined>;
}
