import type { QuotaState } from '../domain/sliding-log';

/**
 * The RateLimit-* headers of a rate-limited route's answers (the names of the IETF httpapi draft):
 * the limit of any 60 s window, the calls left in the current one, and the whole seconds until one
 * more frees up (0 when the window is empty). A 429 carries them too, with Remaining 0 and Retry-After.
 */
export const RATE_LIMIT_HEADERS = { limit: 'RateLimit-Limit', remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset' } as const;

export function quotaHeaders(quota: QuotaState): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(quota.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(quota.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(quota.resetSeconds),
  };
}
