import type { ChargeMethod } from '../../domain/payment-methods';
import { randomString } from '../../platform/ids';
import { AccountNotFoundError, BalanceMovedError } from '../../domain/errors';
import { type LedgerEntry, type LedgerEntryType, type LedgerTransfer, type ShardChange } from '../../domain/ledger';
import type { Item } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';
import type { ChangeCompilers } from './changes';

/**
 * Ledger transfers (shared/domain/ledger.ts) as DynamoDB writes: one update per balance shard the
 * transfer changes and one conditional put per entry (never updated), for the caller's one transaction.
 * The only code that writes a balance shard (test/shared/adapters/dynamo/one-balance-module.test.ts).
 */

/** The item type of ledger entries (`type` attribute); the entry's own type is `entryType`. */
export const LEDGER_ITEM_TYPE = 'ledger';
/** The partition-key prefix of ledger entries: PK `LEDGER#<account id>#<shard>`, SK `<ISO time>#<txn id>` (one partition per balance shard). */
export const LEDGER_PK_PREFIX = 'LEDGER#';

/** `txn_` and 24 alphanumerics, like a Stripe balance transaction id. */
export function newTransactionId(): string {
  return `txn_${randomString(24)}`;
}

/** The entry's item, in the partition of the balance shard its movement changed (`shard`). */
export function ledgerEntryItem(accountId: string, shard: number, entry: LedgerEntry): Item {
  return {
    ...keys.ledgerEntry(accountId, shard, entry.createdAt, entry.id),
    type: LEDGER_ITEM_TYPE,
    accountId,
    shard,
    entryId: entry.id,
    entryType: entry.type,
    amountCents: entry.availableCents,
    ...(entry.reservedCents !== 0 ? { reservedCents: entry.reservedCents } : {}),
    reference: entry.reference,
    description: entry.description,
    ...(entry.method ? { method: entry.method } : {}),
    createdAt: entry.createdAt,
  };
}

/** An entry item read back as a record (entries written before reservations were held have no `reservedCents`). */
export function ledgerEntryOf(item: Item): LedgerEntry {
  return {
    id: String(item.entryId),
    type: String(item.entryType) as LedgerEntryType,
    availableCents: Number(item.amountCents ?? 0),
    reservedCents: Number(item.reservedCents ?? 0),
    reference: String(item.reference),
    description: String(item.description),
    ...(typeof item.method === 'string' ? { method: item.method as ChargeMethod } : {}),
    createdAt: String(item.createdAt),
  };
}

function shardWrite(table: string, transfer: LedgerTransfer, change: ShardChange): TxWrite {
  // A covered take always names the available balance (its condition reads it), even for a part of 0.
  const available = change.availableCents !== 0 || change.cover !== undefined;
  const reserved = change.reservedCents !== 0;
  const adds = [...(available ? ['availableCents :available'] : []), ...(reserved ? ['reservedCents :reserved'] : [])];
  const values: Record<string, number> = {
    ...(available ? { ':available': change.availableCents } : {}),
    ...(reserved ? { ':reserved': change.reservedCents } : {}),
    ...(change.cover !== undefined ? { ':cover': change.cover } : {}),
  };
  const onMissing = transfer.ifShardMissing === 'account_not_found' ? () => new AccountNotFoundError(transfer.accountId) : undefined;
  return {
    Update: {
      TableName: table,
      Key: keys.balanceShard(transfer.accountId, change.shard),
      UpdateExpression: `ADD ${adds.join(', ')}`,
      // A covered take holds only while the shard still has its part (else it moved: plan again); any other change needs the shard to exist.
      ConditionExpression: change.cover !== undefined ? 'availableCents >= :cover' : 'attribute_exists(PK)',
      ExpressionAttributeValues: values,
    },
    ...(change.cover !== undefined ? { onConditionFailed: () => new BalanceMovedError() } : onMissing ? { onConditionFailed: onMissing } : {}),
  };
}

/** A transfer's writes: its shard updates, then its entries (each a conditional put under a fresh id). */
export function transferWrites(table: string, transfer: LedgerTransfer, newId: () => string = newTransactionId): TxWrite[] {
  const entries = transfer.entries.map((draft) => ({ ...draft, id: newId(), reference: transfer.reference, createdAt: transfer.at }));
  return [
    ...transfer.shards
      .filter((change) => change.availableCents !== 0 || change.reservedCents !== 0 || change.cover !== undefined)
      .map((change) => shardWrite(table, transfer, change)),
    ...entries.map((entry) => ({
      Put: { TableName: table, Item: ledgerEntryItem(transfer.accountId, transfer.entryShard, entry), ConditionExpression: 'attribute_not_exists(PK)' },
    })),
  ];
}

/** The ledger room's changes. */
export const ledgerCompilers: ChangeCompilers = { 'ledger.transfer': (context, change) => transferWrites(context.table, change) };
