/**
 * What the HTTP pipeline reaches storage through (issue 45): the Idempotency-Key's record and the ONE
 * transaction that commits a request's writes with that record's completion. One file, as ports import
 * only shared/domain/. DynamoDB implementations: shared/adapters/dynamo/request-store.ts.
 */

/**
 * How long one request may keep retrying writes that lose to concurrent ones: a deadline on the
 * monotonic clock (not the runtime clock, which tests may freeze). One budget for all its steps.
 */
export type RetryBudget = { readonly deadline: number };

/**
 * The Idempotency-Key's record (spec 4.1), as the HTTP pipeline needs it (issue 45): take the key's
 * lock or find the answer to replay, tell a key reused by another request, free the key. Completing the
 * record is not here: it is part of the commit's ONE transaction (`Committer`, `Completion` below).
 */

/** The answer kept for replay: status, body text and the content type. */
export type StoredAnswer = { status: number; body: string; contentType: string };

/** A key this request holds (opaque: only the store that took it reads the rest). */
export type HeldKey = { readonly key: string };

export type LockOutcome = { kind: 'acquired'; held: HeldKey } | { kind: 'replay'; answer: StoredAnswer };

/** A request asking for its key: the account, the key, the request's fingerprint (route and body) and the time. */
export type KeyRequest = { accountId: string; key: string; fingerprint: string; nowSeconds: number };

export type IdempotencyStore = {
  /**
   * Takes the key's lock with one conditional write (new key, expired record, or a crashed attempt's lock
   * run out); otherwise the record decides: another request → 422 idempotency_key_reused, completed →
   * replay, still running → 409 idempotency_in_progress.
   */
  lock(request: KeyRequest, budget: RetryBudget): Promise<LockOutcome>;
  /**
   * Read only: the error (422 idempotency_key_reused) a request answers when the key's live record
   * belongs to another route or body; undefined for a fresh key or its own.
   */
  reuseError(request: KeyRequest): Promise<Error | undefined>;
  /**
   * Frees the key (a 5xx, a refused call, an ambiguous commit). True when this call removed the lock (the
   * commit can no longer happen); false when the record was no longer this lock (the commit did happen).
   */
  release(held: HeldKey): Promise<boolean>;
};

/**
 * The commit of a request (issue 45): the writes its changes compiled to and the completion of its
 * Idempotency-Key's record, in ONE transaction (all or nothing): the money guarantee. The HTTP pipeline
 * reaches it through this port; its DynamoDB implementation is shared/adapters/dynamo/transact.ts.
 */

/** A write as the storage adapter built it (compiled from changes): opaque to the caller, who only passes it on. */
export type StoreWrite = object;

/** The held key's record completed with the answer to replay: a write of the same transaction. */
export type Completion = { held: HeldKey; answer: StoredAnswer };

export type Committer = {
  /**
   * Commits the writes and the completion (when a key is held) atomically, in one transaction. A failed
   * condition throws that write's domain error at once; a transaction that lost only to concurrent ones is
   * retried while the budget lasts, then throws ContentionError (503, nothing written).
   */
  commit(writes: readonly StoreWrite[], completion: Completion | undefined, budget: RetryBudget): Promise<void>;
  /** A fresh budget for a request's retries of lost writes. */
  budget(): RetryBudget;
  /** A failure of the storage that is no domain error yet (e.g. a throttled table) as the domain error it means; any other value as is. */
  asDomainError(err: unknown): unknown;
};

/**
 * A request's hard deadline: every storage call made under it gives up when it passes (a 503 to retry
 * with the same key, before the function's timeout); clean-ups (freeing the key, compensating) run
 * under a short deadline of their own past it.
 */
export type RequestDeadlines = {
  /** The deadline for a request that may run for `remainingMs`. */
  stopAtFor(remainingMs: number): number;
  within<T>(stopAt: number, run: () => Promise<T>): Promise<T>;
  cleanup<T>(run: () => Promise<T>): Promise<T>;
};
