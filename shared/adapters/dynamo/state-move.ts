import { commitWrites, type TxWrite } from './transact';

/** Raised by the status update of a move whose from-status no longer holds. */
export class MoveAlreadyMade extends Error {}

/**
 * Commits a state move: its first write is the status update, conditional on the from-status (and
 * raising MoveAlreadyMade when that condition fails); the rest (balance, outbox) go in the same
 * transaction. Returns false when a duplicate or concurrent notification made the move first:
 * then nothing was written.
 */
export async function commitStateMove(db: Parameters<typeof commitWrites>[0], statusUpdate: TxWrite, others: readonly TxWrite[]): Promise<boolean> {
  try {
    await commitWrites(db, [{ ...statusUpdate, onConditionFailed: () => new MoveAlreadyMade() }, ...others]);
    return true;
  } catch (err) {
    if (err instanceof MoveAlreadyMade) return false;
    throw err;
  }
}
