import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RequestDeadlineError } from '../../errors';
import { withTimeout } from '../../timeout';

/**
 * A request's hard deadline: every DynamoDB call made while it is active gives up when it passes, so a
 * request on an overloaded table answers 503 before the function's timeout cuts it off (a timeout
 * would be a bare 500 from API Gateway, with the idempotency lock left held).
 */
type Scope = { stopAt: number };

const scope = new AsyncLocalStorage<Scope>();

/** Time kept back from the function's remaining time: enough to release the lock and answer. */
export const DEADLINE_MARGIN_MS = 1_500;

/** The deadline for a request that may run for `remainingMs` (the Lambda context's remaining time). */
export function stopAtFor(remainingMs: number): number {
  return performance.now() + Math.max(500, remainingMs - DEADLINE_MARGIN_MS);
}

/** Runs a request under its deadline. */
export function withDeadline<T>(stopAt: number, run: () => Promise<T>): Promise<T> {
  return scope.run({ stopAt }, run);
}

/** Runs clean-up writes (releasing a lock, storing an error answer, a compensation) past the deadline. */
export function outsideDeadline<T>(run: () => Promise<T>): Promise<T> {
  return scope.exit(run);
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
