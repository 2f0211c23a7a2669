import { brazilDate, brazilDayBounds } from './brazil-dates';

/**
 * API Pix's `calendario.expiracao` is an int32 of seconds (bacen/pix-api openapi.yaml: `type: integer,
 * format: int32`): a charge cannot stay payable longer than this from its creation (about 68 years).
 */
export const MAX_EXPIRATION_SECONDS = 2_147_483_647;

/** Seconds a charge stays payable: until the end of its due date in Brazil (23:59:59.999, UTC−3), at least one minute. */
export function expirationSeconds(dueDate: string, now: Date): number {
  const end = brazilDayBounds(dueDate).endMs;
  return Math.max(60, Math.floor((end - now.getTime()) / 1000));
}

/**
 * The last due date (Brazil's calendar) a Pix charge created at `now` can carry: the latest day whose
 * end is at most MAX_EXPIRATION_SECONDS away. A later date is refused (422 on due_date) before any
 * provider is asked: the standard cannot carry it.
 */
export function lastPixDueDate(now: Date): string {
  const candidate = brazilDate(new Date(now.getTime() + MAX_EXPIRATION_SECONDS * 1000));
  if (expirationSeconds(candidate, now) <= MAX_EXPIRATION_SECONDS) return candidate;
  const previous = new Date(Date.parse(`${candidate}T12:00:00.000Z`) - 24 * 3_600_000).toISOString().slice(0, 10);
  return previous;
}
