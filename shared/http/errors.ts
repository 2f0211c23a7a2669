import { DomainError, type ErrorKind, type FieldErrors } from '../domain/errors';
import { quotaHeaders } from './rate-limit-headers';

export type { FieldErrors } from '../domain/errors';

/**
 * The one place an error becomes an HTTP answer (spec 7): each domain error kind (shared/domain/errors.ts) has
 * its status here and nowhere else. General: {"error": message, "code"?}; validation 422:
 * {"error": {field: [messages]}}; unexpected 500: {"error": "Internal error...", "code": "internal_error"}
 * with details only in the log.
 */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  validation: 422,
  unprocessable: 422,
  rate_limited: 429,
  temporary: 503,
  upstream_failed: 502,
  upstream_unavailable: 503,
};

export const INTERNAL_ERROR_MESSAGE = 'Internal error: the request failed unexpectedly. It is safe to retry with the same Idempotency-Key.';

export type ErrorBody = { error: string | FieldErrors; code?: string };

export type ErrorAnswer = { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean };

/** The headers an error's details call for: Retry-After in whole seconds (at least 1) and the RateLimit-* headers of a 429, Allow for a 405. */
function headersOf(err: DomainError): Record<string, string> {
  const headers: Record<string, string> = {};
  const { retryAfterSeconds, allowedMethods, quota } = err.details;
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  if (quota) Object.assign(headers, quotaHeaders(quota));
  if (err.kind === 'method_not_allowed' && allowedMethods) headers.Allow = allowedMethods.join(', ');
  return headers;
}

/**
 * Maps any thrown value to the answer the client gets. Unknown errors become a bare 500. A storage failure
 * that means a domain error (a throttled table: 503) was turned into it before, through the commit port
 * (middleware/storage-errors.ts).
 */
export function toErrorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof DomainError) {
    const status = STATUS_OF_KIND[err.kind];
    if (err.kind === 'validation') return { status, body: { error: err.details.fields ?? {} }, headers: {}, unexpected: false };
    const body: ErrorBody = err.code ? { error: err.message, code: err.code } : { error: err.message };
    return { status, body, headers: headersOf(err), unexpected: false };
  }
  return { status: 500, body: { error: INTERNAL_ERROR_MESSAGE, code: 'internal_error' }, headers: {}, unexpected: true };
}
