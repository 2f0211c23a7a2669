/**
 * The sliding log: pure arithmetic shared by the counters (shared/adapters/dynamo/rate-counter.ts) and their tests.
 *
 * A limit of L calls per minute keeps the times (epoch milliseconds) of the last L admitted calls,
 * oldest first, in one list attribute of exactly L entries (0 = a slot never used). A call at `now`
 * is admitted when the oldest entry is at least 60 s old: then at most L - 1 admitted calls fall in
 * (now - 60 s, now], so no 60 s window ever holds more than L. Admitting drops the oldest entry and
 * appends `now`, so the list keeps its length. The stored check is one conditional UpdateItem:
 * `size(log) = L AND log[0] <= now - 60 s`, update `SET log[L] = now REMOVE log[0]` (DynamoDB
 * evaluates both against the item before the update: the first element goes, the new one is appended).
 */
export const WINDOW_MS = 60_000;

/**
 * Limits above this are counted in fixed one-minute windows (shared/domain/rate-limit-window.ts): a log of
 * one entry per admitted call would outgrow a sensible item (1,000 entries are about 9 KB, 9 write
 * units per call). No limit of the spec comes near it; only load tests and benches set more.
 */
export const MAX_LOGGED_LIMIT = 1000;

export function usesSlidingLog(limit: number): boolean {
  return limit <= MAX_LOGGED_LIMIT;
}

/** A stored log exactly as the one-write check expects it: `limit` numbers. Anything else needs rebuilding. */
export function isCurrentLog(stored: unknown, limit: number): stored is number[] {
  return Array.isArray(stored) && stored.length === limit && stored.every((t) => typeof t === 'number' && Number.isFinite(t));
}

/**
 * The log of `limit` entries made from whatever is stored (missing, written under another limit,
 * or damaged): the most recent numeric entries, in their order, padded at the front with free slots.
 */
export function normalizeLog(stored: unknown, limit: number): number[] {
  const entries = Array.isArray(stored) ? stored.filter((t): t is number => typeof t === 'number' && Number.isFinite(t)) : [];
  const kept = entries.slice(Math.max(0, entries.length - limit));
  return [...Array.from({ length: limit - kept.length }, () => 0), ...kept];
}

/** The latest admission time a call at `nowMs` may find in the log's oldest slot. */
export function cutoffOf(nowMs: number, windowMs = WINDOW_MS): number {
  return nowMs - windowMs;
}

/**
 * Whole seconds until the oldest admission leaves the window and frees a slot: Retry-After, from 1 to
 * the window. (Concurrent calls stamp their times before their writes land, so the oldest entry may be
 * a few milliseconds after `now`: never more than a window away.)
 */
export function retryAfterSeconds(oldestMs: number, nowMs: number, windowMs = WINDOW_MS): number {
  return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((oldestMs + windowMs - nowMs) / 1000)));
}

/**
 * What a client may still do, for the RateLimit-* headers: the limit, the calls left in the current
 * 60 s window, and the whole seconds until one more call frees up (0 when nothing is in the window).
 */
export type QuotaState = { limit: number; remaining: number; resetSeconds: number };

/** The quota a log shows at `nowMs` (after the call it admitted): free slots and when the oldest call in the window leaves it. */
export function logQuota(log: readonly number[], limit: number, nowMs: number, windowMs = WINDOW_MS): QuotaState {
  const cutoff = cutoffOf(nowMs, windowMs);
  const inWindow = log.filter((t) => t > cutoff);
  const oldest = inWindow.length === 0 ? undefined : Math.min(...inWindow);
  return {
    limit,
    remaining: Math.max(0, limit - inWindow.length),
    resetSeconds: oldest === undefined ? 0 : retryAfterSeconds(oldest, nowMs, windowMs),
  };
}

export type LogDecision = { allowed: true; log: number[] } | { allowed: false; retryAfterSeconds: number };

/** Whether a call at `nowMs` is admitted by a log of `limit` entries, and the log after it. */
export function decide(log: readonly number[], nowMs: number, windowMs = WINDOW_MS): LogDecision {
  const oldest = log[0];
  if (oldest === undefined) return { allowed: false, retryAfterSeconds: 1 };
  if (oldest > cutoffOf(nowMs, windowMs)) return { allowed: false, retryAfterSeconds: retryAfterSeconds(oldest, nowMs, windowMs) };
  return { allowed: true, log: [...log.slice(1), nowMs] };
}

/** The most calls admitted in any window of `windowMs` (half-open, (t - windowMs, t]) among these times: for tests. */
export function busiestWindow(times: readonly number[], windowMs = WINDOW_MS): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    const last = sorted[end] ?? 0;
    while ((sorted[start] ?? 0) <= last - windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
