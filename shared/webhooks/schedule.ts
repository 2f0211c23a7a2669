/**
 * Webhook retry schedule (spec 6.5): at most 8 attempts, with waits of 1, 5, 15, 60, 180, 360 and
 * 720 minutes between them. The waits are applied as SQS message visibility timeouts.
 */

export const MAX_ATTEMPTS = 8;

/** The waits, in minutes, after failed attempts 1..7 (index 0 is the wait after the first attempt). */
export const RETRY_WAITS_MINUTES = [1, 5, 15, 60, 180, 360, 720] as const;

/** SQS ChangeMessageVisibility maximum: 12 hours. */
export const MAX_VISIBILITY_SECONDS = 43_200;

/**
 * Whole seconds to wait after `attemptsMade` failed attempts before the next one, or null when
 * the attempts are used up. `scale` shrinks (or stretches) the schedule, e.g. for local runs; the
 * result never exceeds the SQS visibility maximum.
 */
export function nextRetryDelaySeconds(attemptsMade: number, scale = 1): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade must be an integer >= 1, got ${attemptsMade}`);
  if (!Number.isFinite(scale) || scale < 0) throw new RangeError(`scale must be a finite number >= 0, got ${scale}`);
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  const minutes = RETRY_WAITS_MINUTES[attemptsMade - 1];
  if (minutes === undefined) return null;
  return Math.min(MAX_VISIBILITY_SECONDS, Math.round(minutes * 60 * scale));
}
