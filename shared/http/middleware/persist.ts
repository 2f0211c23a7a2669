import { logger } from '../../platform/logger';
import { unixSeconds } from '../../ports/clock';
import { requestFingerprint } from '../../domain/request-fingerprint';
import { JSON_TYPE } from '../answer';
import { DomainError, RequestDeadlineError } from '../../domain/errors';
import { toErrorAnswer } from '../errors';
import type { Answer } from '../answer';
import type { PipelineMiddleware, PrepareRequest, RouteState } from '../state';
import { readsBesideTheGate } from '../../app/auth/admit';
import { settleGate } from './admit';
import type { HeldKey, StoreWrite } from '../../ports/commit';
import { requestDeadlines } from '../../wiring/http';

/** Reads an implementation asks for beside the gate and the lock (httpHandler's `prepare`). */
type Prepare = (request: PrepareRequest) => Promise<unknown>;

/**
 * Idempotency (spec 4.1). Before: takes the key's lock, or finds the answer to replay, beside the gate
 * when the gate went out beside the work (issue 26: one wait for both); a lock taken for a call the gate
 * then refuses is removed at once, and a refused call replays nothing. The handler step commits through
 * `commitAnswer`. On error: an answer below 500 is stored for the key; a 5xx frees the key so a retry
 * runs again.
 */
export function persist(prepare?: Prepare): PipelineMiddleware {
  return {
    before: async (request) => {
      const { state } = request.context;
      // A read waits for its gate beside its read (the handler step).
      if (readsBesideTheGate(state.route)) return;
      if (prepare) {
        const now = state.runtime.clock.now();
        const value = prepare({
          ...(state.input ?? { body: undefined, query: undefined, params: undefined }),
          caller: state.caller,
          idempotencyKey: state.idempotencyKey,
          runtime: state.runtime,
          now,
        });
        // Awaited by the implementation's first run; thrown away (never an unhandled rejection) when the gate refuses or the key replays.
        value.catch(() => undefined);
        state.prepared = { value, now };
      }
      const key = state.idempotencyKey;
      if (key === undefined || !state.caller) return settleGate(state);
      state.keyChecked = true;
      const serviceKeys = await state.runtime.serviceKeys();
      const locking = state.ports.idempotency.lock(
        {
          accountId: state.caller.accountId,
          key,
          fingerprint: requestFingerprint(state.route.id, request.event.body, serviceKeys.idempotency),
          nowSeconds: unixSeconds(state.runtime.clock.now()),
        },
        state.budget,
      );
      const [gate, acquired] = await Promise.allSettled([settleGate(state), locking]);
      if (gate.status === 'rejected') {
        if (acquired.status === 'fulfilled' && acquired.value.kind === 'acquired') await removeRefusedLock(state, acquired.value.held);
        throw gate.reason;
      }
      if (acquired.status === 'rejected') throw acquired.reason;
      if (acquired.value.kind === 'replay') state.replay = acquired.value.answer;
      else state.lock = acquired.value.held;
    },
    onError: async (request) => {
      const { state } = request.context;
      const lock = state?.lock;
      if (!lock) return;
      state.lock = undefined;
      const answer = toErrorAnswer(request.error);
      try {
        // Past the request's deadline too: a 503 for a busy table must still free the key.
        await requestDeadlines.cleanup(async () =>
          answer.status >= 500
            ? void (await state.ports.idempotency.release(lock))
            : state.ports.committer.commit(
                [],
                { held: lock, answer: { status: answer.status, body: JSON.stringify(answer.body), contentType: JSON_TYPE } },
                state.ports.committer.budget(),
              ),
        );
      } catch (err) {
        // The lock expires by itself; the client's answer stays the original error.
        logger.warn('idempotency record not settled', { route: state.route.id, error: err instanceof Error ? err.message : 'unknown' });
      }
    },
  };
}

/**
 * Removes the lock a refused call took beside its gate: nothing ran under it, so the key is as fresh as
 * before the call. Should the removal fail, the lock expires by itself (IDEMPOTENCY_LOCK_SECONDS).
 */
async function removeRefusedLock(state: RouteState, lock: HeldKey): Promise<void> {
  try {
    await requestDeadlines.cleanup(() => state.ports.idempotency.release(lock));
  } catch (err) {
    logger.warn('idempotency lock of a refused call not removed', { route: state.route.id, error: err instanceof Error ? err.message : 'unknown' });
  }
}

/** Commits the route's writes and the completed idempotency record (if a key is held) in ONE transaction. */
export async function commitAnswer(state: RouteState, answer: Answer, writes: readonly StoreWrite[]): Promise<void> {
  await state.ports.committer.commit(writes, state.lock ? { held: state.lock, answer } : undefined, state.budget);
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
    const removed = await requestDeadlines.cleanup(() => state.ports.idempotency.release(lock));
    state.lock = undefined;
    return removed ? 'nothing_written' : 'committed';
  } catch {
    return 'unknown';
  }
}
