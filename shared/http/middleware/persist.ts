import { logger } from '../../logger';
import { unixSeconds } from '../../clock';
import { requestFingerprint } from '../../idempotency/fingerprint';
import { acquireIdempotencyLock, completionWrite, releaseIdempotencyLock } from '../../adapters/dynamo/idempotency';
import { outsideDeadline } from '../../adapters/dynamo/deadline';
import { commitWrites } from '../../adapters/dynamo/transact';
import { JSON_TYPE } from '../answer';
import { DomainError, RequestDeadlineError } from '../../errors';
import { toErrorAnswer } from '../errors';
import type { Answer } from '../answer';
import type { PipelineMiddleware, RouteState } from '../state';
import type { TxWrite } from '../../adapters/dynamo/transact';

/**
 * Idempotency (spec 4.1). Before: takes the key's lock, or finds the answer to replay. The handler
 * step commits through `commitAnswer`. On error: an answer below 500 is stored for the key; a 5xx
 * frees the key so a retry runs again.
 */
export function persist(): PipelineMiddleware {
  return {
    before: async (request) => {
      const { state } = request.context;
      const key = state.idempotencyKey;
      if (key === undefined || !state.caller) return;
      state.keyChecked = true;
      const { config, db, clock } = state.runtime;
      const serviceKeys = await state.runtime.serviceKeys();
      const acquired = await acquireIdempotencyLock(db, {
        table: config.tableName,
        accountId: state.caller.accountId,
        key,
        fingerprint: requestFingerprint(state.route.id, request.event.body, serviceKeys.idempotency),
        answerKey: serviceKeys.idempotentAnswers,
        nowSeconds: unixSeconds(clock.now()),
        lockSeconds: config.idempotency.lockSeconds,
        ttlSeconds: config.idempotency.ttlSeconds,
        budget: state.budget,
      });
      if (acquired.kind === 'replay') state.replay = acquired.answer;
      else state.lock = acquired.lock;
    },
    onError: async (request) => {
      const { state } = request.context;
      const lock = state?.lock;
      if (!lock) return;
      state.lock = undefined;
      const answer = toErrorAnswer(request.error);
      try {
        // Past the request's deadline too: a 503 for a busy table must still free the key.
        await outsideDeadline(async () =>
          answer.status >= 500
            ? void (await releaseIdempotencyLock(state.runtime.db, lock))
            : commitWrites(state.runtime.db, [completionWrite(lock, { status: answer.status, body: JSON.stringify(answer.body), contentType: JSON_TYPE })]),
        );
      } catch (err) {
        // The lock expires by itself; the client's answer stays the original error.
        logger.warn('idempotency record not settled', { route: state.route.id, error: err instanceof Error ? err.message : 'unknown' });
      }
    },
  };
}

/** Commits the route's writes and the completed idempotency record (if a key is held) in ONE transaction. */
export async function commitAnswer(state: RouteState, answer: Answer, writes: readonly TxWrite[]): Promise<void> {
  const completion = state.lock ? [completionWrite(state.lock, answer)] : [];
  await commitWrites(state.runtime.db, [...writes, ...completion], state.budget);
  state.lock = undefined;
}

/** What a failed commit left behind. */
export type CommitOutcome = 'nothing_written' | 'committed' | 'unknown';

/**
 * Settles a commit that failed. A typed refusal (a failed condition, contention, an id clash) wrote
 * nothing. Any other failure (a lost connection, the request's deadline) is ambiguous: when a key is
 * held, removing the lock settles it (its removal makes the commit impossible from then on; finding
 * the record completed means the commit happened). Without a key the outcome stays unknown.
 */
export async function settleFailedCommit(state: RouteState, err: unknown): Promise<CommitOutcome> {
  if (err instanceof DomainError && !(err instanceof RequestDeadlineError)) return 'nothing_written';
  const lock = state.lock;
  if (!lock) return 'unknown';
  try {
    const removed = await outsideDeadline(() => releaseIdempotencyLock(state.runtime.db, lock));
    state.lock = undefined;
    return removed ? 'nothing_written' : 'committed';
  } catch {
    return 'unknown';
  }
}
