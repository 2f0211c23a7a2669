import type { SlotScope, SlotTicket, TakeResult } from '../../domain/attempt-slots';
import { logger } from '../../platform/logger';
import type { AttemptSlots } from '../../ports/attempt-slots';

/**
 * A limit that counts failures (sign-in per e-mail and address, code attempts, card declines): the
 * slot is taken BEFORE the check, in one conditional write (refused → `check` never runs); the check
 * runs; a success gives the slot back, a failure keeps it. A check that throws keeps it too (nobody
 * knows whether it counted: the conservative side). Returns the refusal, or the check's outcome.
 */
export async function withAttemptSlot<T>(
  slots: AttemptSlots,
  take: { scopes: readonly SlotScope[]; slotId: string; now: Date },
  check: () => Promise<T>,
  succeeded: (outcome: T) => boolean,
): Promise<{ refused: Extract<TakeResult, { admitted: false }> } | { refused?: undefined; outcome: T }> {
  const taken = await slots.take(take.scopes, take.slotId, take.now);
  if (!taken.admitted) return { refused: taken };
  const outcome = await check();
  if (succeeded(outcome)) await releaseQuietly(slots, taken.ticket);
  return { outcome };
}

/**
 * Gives a slot back without ever failing the caller (an approved payment must still be recorded): a
 * release that fails leaves the slot taken until it leaves its window (the conservative side), logged.
 */
export async function releaseQuietly(slots: AttemptSlots, ticket: SlotTicket): Promise<void> {
  try {
    await slots.release(ticket);
  } catch (err) {
    logger.warn('attempt slot not released: it stays taken until it leaves its window', {
      logs: ticket.logs.map((log) => log.kind),
      error: err instanceof Error ? err.name : String(err),
    });
  }
}
