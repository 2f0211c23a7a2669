import type { SlotScope, SlotTicket, TakeResult } from '../domain/attempt-slots';

/**
 * Attempt slots (shared/domain/attempt-slots.ts; over the table: shared/adapters/dynamo/attempt-slots.ts).
 * Every limit that must hold under a burst takes a slot before its check, in one conditional write.
 */
export interface AttemptSlots {
  /**
   * Takes slot `slotId` in every scope's log at once, all or nothing: admitted when each log has a
   * free slot in its window (or holds this slot already: a retry of the same attempt is never refused
   * for its own slot, nor takes a second one), else refused naming a full log, with Retry-After.
   * N concurrent takes of different slots admit at most each scope's limit. Throws ContentionError
   * (503, nothing taken) when the logs keep changing under it.
   */
  take(scopes: readonly SlotScope[], slotId: string, now: Date): Promise<TakeResult>;
  /** Gives the ticket's slot back in each of its logs (an attempt that does not count); a log already without it is left as is. */
  release(ticket: SlotTicket): Promise<void>;
}
