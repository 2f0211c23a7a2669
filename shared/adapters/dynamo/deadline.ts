import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RequestDeadlineError } from '../../domain/errors';
import { withTimeout } from '../../platform/timeout';
import { CLEANUP_WINDOW_MS, DEADLINE_MARGIN_MS } from '../../domain/time-budgets';

/**
 * A request's hard deadline: every DynamoDB call made while it is active gives up when it passes, so a
 * request on an overloaded table answers 503 before the function's timeout cuts it off (a timeout
 * would be a bare 500 from API Gateway, with the idempotency lock left held).
 */
type Scope = { stopAt: number; cleanupUntil: number };

const scope = new AsyncLocalStorage<Scope>();

/** Time kept back from the function's remaining time: enough to release the lock and answer (shared/domain/time-budgets.ts). */
export { CLEANUP_WINDOW_MS, DEADLINE_MARGIN_MS };

/** The deadline for a request that may run for `remainingMs` (the Lambda context's remaining time). */
export function stopAtFor(remainingMs: number): number {
  return performance.now() + Math.max(500, remainingMs - DEADLINE_MARGIN_MS);
}

/** Runs a request under its deadline (its clean-up, under CLEANUP_WINDOW_MS more). */
export function withDeadline<T>(stopAt: number, run: () => Promise<T>): Promise<T> {
  return scope.run({ stopAt, cleanupUntil: stopAt + CLEANUP_WINDOW_MS }, run);
}

/**
 * Runs clean-up writes (releasing a lock, storing an error answer, a compensation) past the request's
 * deadline, under a deadline of their own (issue 44): CLEANUP_WINDOW_MS after the request's, the same
 * instant however many clean-ups run, so a stalled table cannot hold the answer past the function's
 * timeout. A clean-up cut off leaves the lock to expire by itself (IDEMPOTENCY_LOCK_SECONDS, at most a
 * minute). Outside a request it runs unbounded, as any call there does.
 */
export function cleanupDeadline<T>(run: () => Promise<T>): Promise<T> {
  const active = scope.getStore();
  if (!active) return run();
  return scope.run({ stopAt: active.cleanupUntil, cleanupUntil: active.cleanupUntil }, run);
}

/** The time left before the active request's clean-up deadline (undefined outside a request): a provider call of a clean-up fits it. */
export function cleanupTimeLeftMs(): number | undefined {
  const active = scope.getStore();
  return active ? Math.max(0, active.cleanupUntil - performance.now()) : undefined;
}

/**
 * An SDK middleware that races each call against the active request's deadline. The abandoned call's
 * outcome is unknown to the caller, exactly like a lost connection: every write it may have made is
 * conditional and recorded under the request's idempotency lock, so a retry replays or runs once.
 */
export function addDeadlineMiddleware(stack: DynamoDBDocumentClient['middlewareStack']): void {
  stack.add(
    (next) => async (args) => {
      const active = scope.getStore();
      if (!active) return next(args);
      const left = active.stopAt - performance.now();
      if (left <= 0) throw new RequestDeadlineError();
      return withTimeout(next(args), left, () => new RequestDeadlineError());
    },
    { step: 'initialize', name: 'requestDeadline', override: true },
  );
}
