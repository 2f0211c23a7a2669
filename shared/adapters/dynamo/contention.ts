import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ContentionError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import { isThrottled } from './throttling';
import type { RetryBudget } from '../../ports/commit';

/**
 * How long one request may keep retrying writes that lost to concurrent ones: well inside the API
 * functions' 10 s timeout, so a busy account answers 503 `temporary_conflict` instead of timing out.
 */
export const CONTENTION_BUDGET_MS = 3_000;

/** A deadline on the monotonic clock (not the runtime clock, which tests may freeze): the port's type (shared/ports/retry-budget.ts). */
export type { RetryBudget };

export function retryBudget(ms: number = CONTENTION_BUDGET_MS): RetryBudget {
  return { deadline: performance.now() + ms };
}

/** A single-item write that met a running transaction: it wrote nothing and may succeed a moment later (as may a throttled call). */
const TRANSACTION_CONFLICT = 'TransactionConflictException';
/** Cancellation reasons of a transaction that lost to others (or was throttled), not to a condition. */
const TRANSIENT_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

type CancellationReason = { Code?: string };

function errorName(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { name?: string }).name : undefined;
}

/** The cancellation reasons of a TransactionCanceledException, or undefined for any other error. */
export function cancellationReasons(err: unknown): CancellationReason[] | undefined {
  if (errorName(err) !== 'TransactionCanceledException') return undefined;
  return (err as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
}

/**
 * True when the call wrote nothing only because of concurrency or throttling: a single-item write that
 * met a running transaction, a throttled call, or a transaction whose every reason is a conflict,
 * a throttle or None. A failed condition is never transient (its answer is immediate).
 */
export function isTransientWriteError(err: unknown): boolean {
  const name = errorName(err);
  if (name === TRANSACTION_CONFLICT || isThrottled(err)) return true;
  const reasons = cancellationReasons(err);
  if (!reasons) return false;
  const codes = reasons.map((reason) => reason.Code ?? 'None').filter((code) => code !== 'None');
  return codes.length > 0 && codes.every((code) => TRANSIENT_REASONS.has(code));
}

/** Full jitter: a wait drawn from 0 to 15 ms doubling per attempt, capped at 400 ms. */
function backoffMs(attempt: number): number {
  return Math.floor(Math.random() * Math.min(400, 15 * 2 ** Math.min(attempt, 10)));
}

/**
 * Runs a DynamoDB call, retrying it with jittered backoff while it fails transiently and the budget
 * lasts; then throws ContentionError (503, nothing written). Any other error is thrown at once.
 */
export async function retryTransient<T>(operation: () => Promise<T>, budget: RetryBudget = retryBudget()): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (err) {
      if (!isTransientWriteError(err)) throw err;
      const wait = backoffMs(attempt);
      if (performance.now() + wait >= budget.deadline) {
        logger.warn('contention budget spent', { attempts: attempt + 1, lastError: errorName(err) });
        throw new ContentionError();
      }
      await sleep(wait);
    }
  }
}
