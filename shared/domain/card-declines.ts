import { normalizeLog } from './sliding-log';

/**
 * Card testing caps (issue 31): someone who knows a merchant's public key could use its hosted checkout
 * (or someone with its API keys the card route) as an oracle, trying card after card. Declined attempts
 * are counted per checkout (for its whole life), per card (a keyed fingerprint of the number: never the
 * number) and per merchant, the last two over a sliding hour, across addresses. At a cap the next
 * attempt is refused without asking the provider; Pix is never affected. Pure rules: the logs are
 * read and written by shared/adapters/dynamo/card-declines.ts; the card's fingerprint is keyed in
 * shared/cards/declines.ts.
 */

/** The log line each declined card attempt writes, with its `accountId` (the per-merchant alarm's Contributor Insights rule counts them). */
export const CARD_DECLINED_MESSAGE = 'card declined';

/** The window of the per-card and per-merchant caps. */
export const DECLINE_WINDOW_MS = 60 * 60 * 1000;

/**
 * A decline log of `limit` entries (epoch ms, oldest first; 0 = never used), the sliding log of the rate
 * limits: `limit` declines within the window lock further attempts until the oldest leaves it.
 */
export type DeclineLog = number[];

/** Whether a log of `limit` entries locks attempts at `nowMs`, and for how many whole seconds more. */
export function declineLock(stored: unknown, limit: number, nowMs: number, windowMs = DECLINE_WINDOW_MS): { locked: boolean; retryAfterSeconds: number } {
  const log = normalizeLog(stored, limit);
  const oldest = log[0] ?? 0;
  const locked = oldest > nowMs - windowMs;
  return { locked, retryAfterSeconds: locked ? Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000)) : 0 };
}

/** The log after one more decline at `nowMs`: the oldest entry goes, `nowMs` is appended. */
export function withDecline(stored: unknown, limit: number, nowMs: number): DeclineLog {
  return [...normalizeLog(stored, limit).slice(1), nowMs];
}

/** Whether a checkout's card form is locked: it took its `perCheckout` declines. */
export function checkoutCardLocked(declines: unknown, perCheckout: number): boolean {
  return Number(declines ?? 0) >= perCheckout;
}
