import { randomString } from '../ids';
import { formatCents } from '../domain/money';
import type { Item } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';

/**
 * Ledger entries (issue 11): one immutable entry per balance movement, in the same transaction as the
 * movement. The balance is the sum of an account's entries (reconciliation checks it).
 */
export const LEDGER_ENTRY_TYPES = ['payment', 'refund', 'withdrawal', 'withdrawal_fee', 'withdrawal_release', 'adjustment'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

/** The item type of ledger entries (`type` attribute); the entry's own type is `entryType`. */
export const LEDGER_ITEM_TYPE = 'ledger';
/** The partition-key prefix of ledger entries: PK `LEDGER#<account id>#<shard>`, SK `<ISO time>#<txn id>` (one partition per balance shard). */
export const LEDGER_PK_PREFIX = 'LEDGER#';

/** `txn_` and 24 alphanumerics, like a Stripe balance transaction id. */
export function newTransactionId(): string {
  return `txn_${randomString(24)}`;
}

export type LedgerEntry = {
  id: string;
  type: LedgerEntryType;
  /** Signed integer cents: credits positive, debits negative. */
  amountCents: number;
  /** What the movement belongs to: an invoice reference, a withdraw reference, or an operator note's id. */
  reference: string;
  description: string;
  /** ISO time of the movement. */
  createdAt: string;
};

/** The entry's item, in the partition of the balance shard its movement changed (`shard`). */
export function ledgerEntryItem(accountId: string, shard: number, entry: LedgerEntry): Item {
  return {
    ...keys.ledgerEntry(accountId, shard, entry.createdAt, entry.id),
    type: LEDGER_ITEM_TYPE,
    accountId,
    shard,
    entryId: entry.id,
    entryType: entry.type,
    amountCents: entry.amountCents,
    reference: entry.reference,
    description: entry.description,
    createdAt: entry.createdAt,
  };
}

/** The statement's transaction object: the signed amount as a 2-decimal string (`-10.50`). */
export function entryView(item: Item): { id: string; type: string; amount: string; reference: string; description: string; created_at: string } {
  return {
    id: String(item.entryId),
    type: String(item.entryType),
    amount: formatCents(Number(item.amountCents)),
    reference: String(item.reference),
    description: String(item.description),
    created_at: String(item.createdAt),
  };
}
