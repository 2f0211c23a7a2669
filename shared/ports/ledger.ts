import type { LedgerEntry, LedgerEntryType } from '../domain/ledger';

/** A statement page's filters: a page of `limit` entries, an entry type, a Brazil-date range (inclusive). */
export type StatementQuery = { page: number; limit: number; type?: LedgerEntryType; start?: string; end?: string };

/** The ledger as the account's own reads see it (shared/adapters/dynamo/ledger-balance.ts, ledger-statement.ts). */
export interface LedgerReader {
  /** The available and reserved balance: the sums of the account's shards, read consistently. */
  balance(accountId: string): Promise<{ availableCents: number; reservedCents: number }>;
  /** One page of the account's entries, newest first. */
  statement(accountId: string, query: StatementQuery): Promise<LedgerEntry[]>;
}
