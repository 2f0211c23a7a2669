import type { QuotaState } from './sliding-log';

/** Fixed one-minute windows: pure arithmetic shared by the counter and its tests. */
export const WINDOW_SECONDS = 60;

export function windowOf(nowSeconds: number, windowSeconds = WINDOW_SECONDS): number {
  return Math.floor(nowSeconds / windowSeconds);
}

/** Whole seconds until the next window opens (at least 1): the Retry-After value. */
export function secondsUntilNextWindow(nowSeconds: number, windowSeconds = WINDOW_SECONDS): number {
  return Math.max(1, (windowOf(nowSeconds, windowSeconds) + 1) * windowSeconds - Math.floor(nowSeconds));
}

/** The quota of a fixed window holding `count` calls (this one included). */
export function windowQuota(count: number, limit: number, nowSeconds: number, windowSeconds = WINDOW_SECONDS): QuotaState {
  return { limit, remaining: Math.max(0, limit - count), resetSeconds: secondsUntilNextWindow(nowSeconds, windowSeconds) };
}
