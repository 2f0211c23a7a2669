/**
 * Webhook retry schedule (spec 6.5): at most 8 attempts, with waits of 1, 5, 15, 60, 180, 360 and
 * 720 minutes between them. The waits are SQS message delays (in hops of at most 15 minutes,
 * shared/domain/delay-hops.ts); the delivery record (its `nextAttemptAt` and the `claimUntil` lease)
 * decides whether a message may attempt.
 */

export const MAX_ATTEMPTS = 8;

/** The waits, in minutes, after failed attempts 1..7 (index 0 is the wait after the first attempt). */
export const RETRY_WAITS_MINUTES = [1, 5, 15, 60, 180, 360, 720] as const;

/**
 * Whole seconds to wait after `attemptsMade` failed attempts before the next one, or null when
 * the attempts are used up. `scale` shrinks (or stretches) the schedule, e.g. for local runs.
 */
export function nextRetryDelaySeconds(attemptsMade: number, scale = 1): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade must be an integer >= 1, got ${attemptsMade}`);
  if (!Number.isFinite(scale) || scale < 0) throw new RangeError(`scale must be a finite number >= 0, got ${scale}`);
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  const minutes = RETRY_WAITS_MINUTES[attemptsMade - 1];
  if (minutes === undefined) return null;
  return Math.round(minutes * 60 * scale);
}

/**
 * How long one attempt holds its delivery (the `claimUntil` lease). Longer than the sender's whole
 * run (the worker's 50 s timeout, which bounds the 10 s POST), so a lease that has run out belongs to
 * an attempt that is over or dead: the next message may attempt again (at least once, never twice at
 * the same time). Not scaled by WEBHOOK_RETRY_SCALE: it is about exclusion, not the schedule.
 */
export const ATTEMPT_LEASE_SECONDS = 60;

/** A message may come back this much before `nextAttemptAt` and still attempt (SQS waits are whole seconds). */
export const EARLY_TOLERANCE_MS = 1_000;

/** The delivery record as far as the turn is concerned (ISO times, as stored). */
export type DeliveryState = { status?: unknown; nextAttemptAt?: unknown; claimUntil?: unknown };

/**
 * What a message for this delivery may do now, whatever scheduled it: `closed` (succeeded or failed:
 * nothing left to do), `wait` (another attempt holds the lease, or the schedule's next attempt is not
 * due yet: come back in `seconds`), or `open` (claim the attempt). An attempt therefore never runs
 * beside another one nor before its time, even when a message is handed over twice.
 */
export function deliveryTurn(record: DeliveryState | undefined, now: Date): { kind: 'closed' } | { kind: 'wait'; seconds: number } | { kind: 'open' } {
  if (!record) return { kind: 'open' };
  if (record.status !== undefined && record.status !== 'pending') return { kind: 'closed' };
  const wait = (untilIso: unknown, toleranceMs: number) => {
    if (typeof untilIso !== 'string') return 0;
    const ms = Date.parse(untilIso) - now.getTime();
    return Number.isFinite(ms) && ms > toleranceMs ? Math.ceil(ms / 1000) : 0;
  };
  const seconds = Math.max(wait(record.claimUntil, 0), wait(record.nextAttemptAt, EARLY_TOLERANCE_MS));
  return seconds > 0 ? { kind: 'wait', seconds } : { kind: 'open' };
}
