/**
 * Waits on SQS delays, never on visibility. SQS delays a message at most 15 minutes (`DelaySeconds`
 * 0–900), so a longer wait is a chain of hops: the message carries the time it is due (`notBefore`),
 * and a message that arrives early is sent again with the time left (at most 15 minutes) and deleted.
 * A delayed message is not in flight: a backlog of retries never reaches SQS's in-flight limit, and
 * nothing is held longer than one attempt.
 */
export const MAX_DELAY_SECONDS = 900;

/** A message may arrive this much before its `notBefore` and count as due (delays are whole seconds). */
export const DUE_TOLERANCE_MS = 1_000;

/** The part of a message body that schedules it. */
export type Scheduled = { notBefore?: string };

/** Seconds of delay for the next hop towards `notBefore`: 0 when due, at most `maxHopSeconds` (900). */
export function hopDelaySeconds(notBefore: Date, now: Date, maxHopSeconds: number = MAX_DELAY_SECONDS): number {
  const ms = notBefore.getTime() - now.getTime();
  if (!Number.isFinite(ms) || ms <= DUE_TOLERANCE_MS) return 0;
  return Math.min(maxHopSeconds, Math.ceil(ms / 1000));
}

/**
 * The longest hop of a schedule whose waits are multiplied by `scale` (WEBHOOK_RETRY_SCALE,
 * PAYOUT_RETRY_SCALE): 900 s × scale, in whole seconds from 1 to 900. In AWS the scale is 1 and a
 * hop is SQS's 15 minutes; a shrunk schedule (local runs, tests) shrinks its hops alike, so a long
 * wait still takes about as many hops, and as many invocations of its consumer, as in AWS: Lambda's
 * recursive-loop rule counts them (../shared/notes/aws-limits.md).
 */
export function maxHopSecondsFor(scale: number): number {
  if (!Number.isFinite(scale) || scale <= 0) return MAX_DELAY_SECONDS;
  return Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.round(MAX_DELAY_SECONDS * scale)));
}

/** True when a message scheduled for `notBefore` (or not scheduled) may act now. */
export function isDue(message: Scheduled, now: Date): boolean {
  if (message.notBefore === undefined) return true;
  return hopDelaySeconds(new Date(message.notBefore), now) === 0;
}
