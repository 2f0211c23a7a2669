import { isThrottled } from '../storage/throttling';

/**
 * The one error module: typed errors thrown anywhere, and their mapping to the spec's shapes (spec 7).
 * General: {"error": message}; validation 422: {"error": {field: [messages]}};
 * unexpected 500: {"error": "Internal error...", "code": "internal_error"} with details only in the log.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code?: string) {
    super(400, message, code);
  }
}

export class InsufficientBalanceError extends AppError {
  constructor() {
    super(400, 'Insufficient balance: the available balance does not cover the amount plus the fee', 'insufficient_balance');
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized') {
    super(401, message, 'unauthorized');
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, message, 'not_found');
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(allowed: string[]) {
    super(405, 'Method not allowed', 'method_not_allowed', { Allow: allowed.join(', ') });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code?: string) {
    super(409, message, code);
  }
}

export class ValidationError extends AppError {
  constructor(readonly fields: FieldErrors) {
    super(422, 'Validation failed', 'validation_failed');
  }
}

/** A 422 whose body is a general message with a machine code (e.g. idempotency_key_reused). */
export class UnprocessableError extends AppError {
  constructor(message: string, code: string) {
    super(422, message, code);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'Too many requests: retry after the time given in Retry-After', 'rate_limited', {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/** A transient conflict: nothing was written; the client retries (with the same Idempotency-Key). */
export class TemporaryConflictError extends AppError {
  constructor(message = 'A temporary conflict stopped the request; nothing was written. Retry with the same Idempotency-Key.', retryAfterSeconds = 1) {
    super(503, message, 'temporary_conflict', { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** A randomly drawn id or reference was taken: the pipeline may draw again (routes marked retryOnIdClash). */
export class IdClashError extends TemporaryConflictError {}

/**
 * Concurrent requests on the same items (a busy balance) kept winning over this one until its retry
 * budget ran out: nothing was written, the Idempotency-Key is free again. Never retried in place.
 */
export class ContentionError extends TemporaryConflictError {
  constructor() {
    super(
      'The account is busy: concurrent requests kept conflicting with this one and nothing was written. Retry after the time in Retry-After with the same Idempotency-Key.',
    );
  }
}

/**
 * The request's deadline passed while it waited on the table (an overloaded table or network): it was
 * stopped before the function's timeout. It may or may not have completed; the idempotency lock makes
 * a retry with the same key replay the answer or run once.
 */
export class RequestDeadlineError extends TemporaryConflictError {
  constructor() {
    super(
      'The service is busy and stopped this request before it could finish. Retry after the time in Retry-After with the same Idempotency-Key: a request that did complete replays its answer.',
      2,
    );
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, `The request body is larger than ${limitBytes} bytes (1 MB)`, 'payload_too_large');
  }
}

export class UpstreamError extends AppError {
  constructor(status: 502 | 503, message: string) {
    super(status, message, status === 502 ? 'upstream_error' : 'upstream_unavailable');
  }
}

export const INTERNAL_ERROR_MESSAGE = 'Internal error: the request failed unexpectedly. It is safe to retry with the same Idempotency-Key.';

export type ErrorBody = { error: string | FieldErrors; code?: string };

export type ErrorAnswer = { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean };

/** Maps any thrown value to the answer the client gets. Unknown errors become a bare 500. */
export function toErrorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof ValidationError) {
    return { status: 422, body: { error: err.fields }, headers: {}, unexpected: false };
  }
  if (isThrottled(err))
    return toErrorAnswer(new TemporaryConflictError('The table is busy (throttled); nothing was written. Retry with the same Idempotency-Key.'));
  if (err instanceof AppError) {
    const body: ErrorBody = err.code ? { error: err.message, code: err.code } : { error: err.message };
    return { status: err.status, body, headers: err.headers, unexpected: false };
  }
  return { status: 500, body: { error: INTERNAL_ERROR_MESSAGE, code: 'internal_error' }, headers: {}, unexpected: true };
}
