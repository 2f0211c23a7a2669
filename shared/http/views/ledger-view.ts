import { formatCents } from '../../domain/money';
import type { LedgerEntry } from '../../domain/ledger';

/**
 * The statement's transaction object: the signed movement of the available balance (`amount`) and of
 * the reserved one (`reserved`), each a 2-decimal string (`-10.50`). A withdrawal shows its phases:
 * `withdrawal` and `withdrawal_fee` hold it (amount −, reserved +), then `withdrawal_posted` (paid:
 * reserved −) or `withdrawal_release` (refused: reserved −, amount +).
 */
export function entryView(entry: LedgerEntry) {
  return {
    id: entry.id,
    type: entry.type,
    amount: formatCents(entry.availableCents),
    reserved: formatCents(entry.reservedCents),
    reference: entry.reference,
    description: entry.description,
    created_at: entry.createdAt,
  };
}
