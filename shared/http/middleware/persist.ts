import { logger } from '../../logger';
import { unixSeconds } from '../../clock';
import { requestFingerprint } from '../../idempotency/fingerprint';
import { idempotencyKeyFrom, IDEMPOTENCY_HEADER } from '../../idempotency/key';
import { acquireIdempotencyLock, completionWrite, releaseIdempotencyLock } from '../../idempotency/store';
import { commitWrites } from '../../storage/transact';
import { JSON_TYPE } from '../answer';
import { toErrorAnswer } from '../errors';
import type { Answer } from '../answer';
import { header, type PipelineMiddleware, type RouteState } from '../state';
import type { TxWrite } from '../../storage/transact';

/**
 * Idempotency (spec 4.1). Before: takes the key's lock, or finds the answer to replay. The handler
 * step commits through `commitAnswer`. On error: an answer below 500 is stored for the key; a 5xx
 * frees the key so a retry runs again.
 */
export function persist(): PipelineMiddleware {
  return {
    before: async (request) => {
      const { state } = request.context;
      const key = idempotencyKeyFrom(header(request, IDEMPOTENCY_HEADER), state.route.idempotency);
      if (key === undefined || !state.caller) return;
      const { config, db, clock } = state.runtime;
      const acquired = await acquireIdempotencyLock(db, {
        table: config.tableName,
        accountId: state.caller.accountId,
        key,
        fingerprint: requestFingerprint(state.route.id, request.event.body, (await state.runtime.serviceKeys()).idempotency),
        nowSeconds: unixSeconds(clock.now()),
        lockSeconds: config.idempotency.lockSeconds,
        ttlSeconds: config.idempotency.ttlSeconds,
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
        if (answer.status >= 500) await releaseIdempotencyLock(state.runtime.db, lock);
        else
          await commitWrites(state.runtime.db, [completionWrite(lock, { status: answer.status, body: JSON.stringify(answer.body), contentType: JSON_TYPE })]);
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
  await commitWrites(state.runtime.db, [...writes, ...completion]);
  state.lock = undefined;
}
