import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ContentionError, UnprocessableError } from '../../domain/errors';
import { type Db, isConditionalCheckFailed, itemFromConditionFailure } from './dynamo';
import { type RetryBudget, retryTransient } from './contention';
import { cleanupDeadline } from './deadline';
import { seal, unseal } from '../../platform/crypto/personal-data';
import { keys } from './keys';
import type { TxWrite } from './transact';
import type { StoredAnswer } from '../../ports/commit';

/** The answer kept for replay: status, body text and the content type (the port's type). */
export type { StoredAnswer };

/** A held key; `answerKey` seals the answer stored for replay (it may carry personal data, e.g. a customer's document). */
export type Lock = { table: string; accountId: string; key: string; lockId: string; ttl: number; answerKey: Buffer };

export type AcquireResult = { kind: 'acquired'; lock: Lock } | { kind: 'replay'; answer: StoredAnswer };

export type AcquireInput = {
  table: string;
  accountId: string;
  key: string;
  fingerprint: string;
  nowSeconds: number;
  lockSeconds: number;
  ttlSeconds: number;
  /** Seals and unseals the stored answers (ServiceKeys.idempotentAnswers). */
  answerKey: Buffer;
  /** The request's budget for retrying a lock put that met a running transaction on the same key. */
  budget?: RetryBudget;
};

/**
 * Takes the key's lock with one conditional put: it succeeds when the key is new, when its record
 * has expired, or when a crashed attempt's lock has run out. Otherwise the existing record decides:
 * another body or route → 422 idempotency_key_reused; completed → replay; still running → 409.
 */
export async function acquireIdempotencyLock(db: Db, input: AcquireInput): Promise<AcquireResult> {
  const lockId = randomUUID();
  const ttl = input.nowSeconds + input.ttlSeconds;
  try {
    const put = new PutCommand({
      TableName: input.table,
      Item: {
        ...keys.idempotency(input.accountId, input.key),
        type: 'idempotency',
        state: 'IN_PROGRESS',
        fingerprint: input.fingerprint,
        lockId,
        lockExpiresAt: input.nowSeconds + input.lockSeconds,
        createdAt: input.nowSeconds,
        ttl,
      },
      ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now OR (#state = :running AND lockExpiresAt < :now)',
      ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
      ExpressionAttributeValues: { ':now': input.nowSeconds, ':running': 'IN_PROGRESS' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    await retryTransient(() => db.send(put), input.budget);
    return { kind: 'acquired', lock: { table: input.table, accountId: input.accountId, key: input.key, lockId, ttl, answerKey: input.answerKey } };
  } catch (err) {
    if (!isConditionalCheckFailed(err)) {
      // The put may have landed with its answer lost: remove it (only if it is ours) so the key is not held.
      if (!(err instanceof ContentionError)) {
        const ours = { table: input.table, accountId: input.accountId, key: input.key, lockId, ttl, answerKey: input.answerKey };
        await cleanupDeadline(() => releaseIdempotencyLock(db, ours)).catch(() => undefined);
      }
      throw err;
    }
    const existing = itemFromConditionFailure(err);
    if (existing?.fingerprint !== input.fingerprint) throw keyReusedError();
    if (existing.state === 'COMPLETED') {
      const body =
        typeof existing.bodySealed === 'string'
          ? unseal(existing.bodySealed, input.answerKey, answerContext(input.accountId, input.key))
          : String(existing.body); // records written before answers were sealed (they expire within 24 h)
      return { kind: 'replay', answer: { status: Number(existing.status), body, contentType: String(existing.contentType) } };
    }
    throw new ConflictError('A request with this Idempotency-Key is still being processed', 'idempotency_in_progress');
  }
}

/** Spec 4.1: the same key with a different body or route. */
export function keyReusedError(): UnprocessableError {
  return new UnprocessableError('This Idempotency-Key was already used with another request body or route', 'idempotency_key_reused');
}

export type KeyUseInput = { table: string; accountId: string; key: string; fingerprint: string; nowSeconds: number };

/**
 * Whether the key's record, still alive, belongs to another request (another route or body). Read
 * only (a strongly consistent GetItem): asked for a request refused before it could take the key's
 * lock (its body did not parse or validate), so that a reused key is named before the body's faults
 * and such a request never records anything for the key.
 */
export async function keyUsedByAnotherRequest(db: Db, input: KeyUseInput): Promise<boolean> {
  const found = await db.send(new GetCommand({ TableName: input.table, Key: keys.idempotency(input.accountId, input.key), ConsistentRead: true }));
  const record = found.Item;
  if (!record || Number(record.ttl) < input.nowSeconds) return false;
  return record.fingerprint !== input.fingerprint;
}

/** The associated data of a stored answer: it cannot be moved to another account's key. */
function answerContext(accountId: string, key: string): string {
  return `idempotent-answer:${accountId}:${key}`;
}

/**
 * The write that completes the record: part of the same transaction as the business writes. The answer
 * is stored sealed (AES-256-GCM), so no personal data of a replayable answer sits readable in the table.
 */
export function completionWrite(lock: Lock, answer: StoredAnswer): TxWrite {
  return {
    Update: {
      TableName: lock.table,
      Key: keys.idempotency(lock.accountId, lock.key),
      UpdateExpression: 'SET #state = :done, #status = :status, bodySealed = :body, contentType = :ct REMOVE lockExpiresAt',
      ConditionExpression: 'lockId = :lock AND #state = :running',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status' },
      ExpressionAttributeValues: {
        ':done': 'COMPLETED',
        ':status': answer.status,
        ':body': seal(answer.body, lock.answerKey, answerContext(lock.accountId, lock.key)),
        ':ct': answer.contentType,
        ':lock': lock.lockId,
        ':running': 'IN_PROGRESS',
      },
    },
    onConditionFailed: () => new ConflictError('A request with this Idempotency-Key is still being processed', 'idempotency_in_progress'),
  };
}

/**
 * Frees the key after a failure that is not stored (a 5xx), so a retry with it runs again. Returns
 * true when this call removed the lock (the request's commit can no longer happen: its completion is
 * conditional on the lock), false when the record was no longer this lock (e.g. the commit did happen).
 */
export async function releaseIdempotencyLock(db: Db, lock: Lock): Promise<boolean> {
  const release = new DeleteCommand({
    TableName: lock.table,
    Key: keys.idempotency(lock.accountId, lock.key),
    ConditionExpression: 'lockId = :lock AND #state = :running',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':lock': lock.lockId, ':running': 'IN_PROGRESS' },
  });
  try {
    await retryTransient(() => db.send(release));
    return true;
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    return false;
  }
}
