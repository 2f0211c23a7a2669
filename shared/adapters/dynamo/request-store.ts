import { TemporaryConflictError } from '../../domain/errors';
import type { Committer, HeldKey, IdempotencyStore, RequestDeadlines, StoreWrite } from '../../ports/commit';
import { retryBudget } from './contention';
import { cleanupDeadline, stopAtFor, withDeadline } from './deadline';
import type { Db } from './dynamo';
import { acquireIdempotencyLock, completionWrite, keyReusedError, keyUsedByAnotherRequest, type Lock, releaseIdempotencyLock } from './idempotency';
import { isThrottled } from './throttling';
import { commitWrites, type TxWrite } from './transact';

/**
 * The DynamoDB side of the ports the HTTP pipeline reaches idempotency and the commit through (issue 45):
 * the key's record (./idempotency.ts) and the ONE TransactWriteItems that carries the request's writes
 * and the record's completion (./transact.ts).
 */

/** Where the records live and how long they hold; `answerKey` seals the answers stored for replay. */
export type IdempotencySettings = { table: string; lockSeconds: number; ttlSeconds: number; answerKey: () => Promise<Buffer> };

/** A held key this store took (its lock id, table and sealing key ride along). */
function isLock(held: HeldKey): held is Lock {
  return 'lockId' in held && typeof held.lockId === 'string' && 'table' in held && 'answerKey' in held && Buffer.isBuffer(held.answerKey);
}

function lockOf(held: HeldKey): Lock {
  if (!isLock(held)) throw new Error('An idempotency key this store did not take');
  return held;
}

/** A write of this adapter's transactions: one of Put, Update, Delete or ConditionCheck. */
function isTxWrite(write: StoreWrite): write is TxWrite {
  return 'Put' in write || 'Update' in write || 'Delete' in write || 'ConditionCheck' in write;
}

function txWriteOf(write: StoreWrite): TxWrite {
  if (!isTxWrite(write)) throw new Error('A write this storage did not build');
  return write;
}

export function dynamoIdempotencyStore(db: Db, settings: IdempotencySettings): IdempotencyStore {
  return {
    lock: async (request, budget) => {
      const acquired = await acquireIdempotencyLock(db, {
        ...request,
        table: settings.table,
        lockSeconds: settings.lockSeconds,
        ttlSeconds: settings.ttlSeconds,
        answerKey: await settings.answerKey(),
        budget,
      });
      return acquired.kind === 'acquired' ? { kind: 'acquired', held: acquired.lock } : acquired;
    },
    reuseError: async (request) => ((await keyUsedByAnotherRequest(db, { ...request, table: settings.table })) ? keyReusedError() : undefined),
    release: (held) => releaseIdempotencyLock(db, lockOf(held)),
  };
}

/** A throttled table wrote nothing: a 503 to retry with the same key. */
export function throttledAsDomainError(err: unknown): unknown {
  return isThrottled(err) ? new TemporaryConflictError('The table is busy (throttled); nothing was written. Retry with the same Idempotency-Key.') : err;
}

export function dynamoCommitter(db: Db): Committer {
  return {
    commit: (writes, completion, budget) =>
      commitWrites(db, [...writes.map(txWriteOf), ...(completion ? [completionWrite(lockOf(completion.held), completion.answer)] : [])], budget),
    budget: () => retryBudget(),
    asDomainError: throttledAsDomainError,
  };
}

/** Every DynamoDB call of a request gives up at its deadline (the client's middleware, ./deadline.ts). */
export const dynamoDeadlines: RequestDeadlines = { stopAtFor, within: withDeadline, cleanup: cleanupDeadline };
