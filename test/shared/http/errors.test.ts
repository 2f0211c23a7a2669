import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ContentionError,
  DomainError,
  type ErrorKind,
  IdClashError,
  InsufficientBalanceError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestDeadlineError,
  TemporaryConflictError,
  UnauthorizedError,
  UnprocessableError,
  UpstreamError,
  ValidationError,
} from '../../../shared/domain/errors';
import { INTERNAL_ERROR_MESSAGE, STATUS_OF_KIND, toErrorAnswer } from '../../../shared/http/errors';
import { throttledAsDomainError } from '../../../shared/adapters/dynamo/request-store';

describe('toErrorAnswer', () => {
  it('maps a ValidationError to 422 {error: {field: [messages]}} without a code', () => {
    const fields = { amount: ['Must be greater than 0'], 'customer.email': ['Invalid email', 'Too long'] };
    const answer = toErrorAnswer(new ValidationError(fields));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ error: fields });
    expect(answer.unexpected).toBe(false);
    expect(answer.headers).toEqual({});
  });

  it.each([
    [new BadRequestError('Payment method not enabled', 'method_not_enabled'), 400, 'method_not_enabled'],
    [new UnauthorizedError('Invalid token'), 401, 'unauthorized'],
    [new NotFoundError('No such invoice'), 404, 'not_found'],
    [new ConflictError('Still processing', 'idempotency_in_progress'), 409, 'idempotency_in_progress'],
    [new UnprocessableError('Key reused with another body', 'idempotency_key_reused'), 422, 'idempotency_key_reused'],
    [new UpstreamError('upstream_failed', 'Bank said no'), 502, 'upstream_error'],
    [new UpstreamError('upstream_unavailable', 'Bank unavailable'), 503, 'upstream_unavailable'],
  ])('maps %s to its status with {error, code}', (err, status, code) => {
    const answer = toErrorAnswer(err);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error: err.message, code });
    expect(answer.unexpected).toBe(false);
  });

  it('leaves the code out when a DomainError has none', () => {
    const answer = toErrorAnswer(new BadRequestError('Card refused by the issuer'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Card refused by the issuer' });
    expect(Object.keys(answer.body)).toEqual(['error']);
  });

  it.each([
    ['invalid', 400],
    ['unauthorized', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['method_not_allowed', 405],
    ['conflict', 409],
    ['gone', 410],
    ['payload_too_large', 413],
    ['unprocessable', 422],
    ['rate_limited', 429],
    ['temporary', 503],
    ['upstream_failed', 502],
    ['upstream_unavailable', 503],
  ] satisfies [ErrorKind, number][])('maps a plain DomainError of kind %s to %i with {error, code} and no headers', (kind, status) => {
    const answer = toErrorAnswer(new DomainError(kind, 'what happened', 'some_code'));
    expect(answer).toEqual({ status, body: { error: 'what happened', code: 'some_code' }, headers: {}, unexpected: false });
  });

  it('has a status for every kind, and only the validation kind answers field errors', () => {
    expect(Object.keys(STATUS_OF_KIND).sort()).toEqual(
      [
        'invalid',
        'unauthorized',
        'forbidden',
        'not_found',
        'method_not_allowed',
        'conflict',
        'gone',
        'payload_too_large',
        'validation',
        'unprocessable',
        'rate_limited',
        'temporary',
        'upstream_failed',
        'upstream_unavailable',
      ].sort(),
    );
    expect(toErrorAnswer(new DomainError('validation', 'Validation failed', 'validation_failed', { fields: { a: ['bad'] } })).body).toEqual({
      error: { a: ['bad'] },
    });
  });

  it.each([
    [new InsufficientBalanceError(), 400, 'insufficient_balance'],
    [new PayloadTooLargeError(1_048_576), 413, 'payload_too_large'],
    [new TemporaryConflictError(), 503, 'temporary_conflict'],
    [new IdClashError(), 503, 'temporary_conflict'],
    [new ContentionError(), 503, 'temporary_conflict'],
  ])('maps %s to %i with its code', (err, status, code) => {
    const answer = toErrorAnswer(err);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error: err.message, code });
  });

  it('gives the temporary kinds a Retry-After: 1 s by default, 2 s after a deadline', () => {
    expect(toErrorAnswer(new TemporaryConflictError()).headers).toEqual({ 'Retry-After': '1' });
    expect(toErrorAnswer(new ContentionError()).headers).toEqual({ 'Retry-After': '1' });
    expect(toErrorAnswer(new RequestDeadlineError()).headers).toEqual({ 'Retry-After': '2' });
    expect(toErrorAnswer(new TemporaryConflictError('busy', 7)).headers).toEqual({ 'Retry-After': '7' });
  });

  it('turns a throttled table (by error name), as the commit port names it, into a 503 temporary_conflict with Retry-After', () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    // errors.ts knows domain errors only (issue 45): the storage's port turns the throttle into one first.
    expect(toErrorAnswer(throttled).status).toBe(500);
    const answer = toErrorAnswer(throttledAsDomainError(throttled));
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'temporary_conflict' });
    expect(answer.headers).toEqual({ 'Retry-After': '1' });
    expect(answer.unexpected).toBe(false);
  });

  it.each([
    [0.2, '1'],
    [0, '1'],
    [-5, '1'],
    [1, '1'],
    [1.01, '2'],
    [59.1, '60'],
    [60, '60'],
  ])('gives 429 with Retry-After in whole seconds >= 1 (retry after %s s → %s)', (seconds, header) => {
    const answer = toErrorAnswer(new RateLimitedError(seconds));
    expect(answer.status).toBe(429);
    expect(answer.headers['Retry-After']).toBe(header);
    expect(answer.body).toMatchObject({ code: 'rate_limited' });
    expect(typeof answer.body.error).toBe('string');
  });

  it('gives 405 with an Allow header listing the allowed methods', () => {
    const answer = toErrorAnswer(new MethodNotAllowedError(['GET', 'POST']));
    expect(answer.status).toBe(405);
    expect(answer.headers).toEqual({ Allow: 'GET, POST' });
    expect(answer.body).toMatchObject({ code: 'method_not_allowed' });
  });

  it('turns an unknown Error into a bare 500 that leaks neither the message nor the stack', () => {
    const err = new Error('ENOENT: no such file /var/task/secret/config.json (db password hunter2)');
    expect(err.stack).toContain('at ');
    const answer = toErrorAnswer(err);
    expect(answer.status).toBe(500);
    expect(answer.unexpected).toBe(true);
    expect(answer.headers).toEqual({});
    expect(answer.body).toEqual({ error: INTERNAL_ERROR_MESSAGE, code: 'internal_error' });
    const json = JSON.stringify(answer.body);
    expect(json).not.toContain('/var/task');
    expect(json).not.toContain('hunter2');
    expect(json).not.toContain('ENOENT');
    expect(json).not.toMatch(/\bat \S+ \(|\bat \//);
    expect(INTERNAL_ERROR_MESSAGE.startsWith('Internal error')).toBe(true);
  });

  it.each([['a string'], [undefined], [null], [42], [{ status: 400, message: 'looks like a DomainError' }], [new TypeError('x is undefined')]])(
    'turns any other thrown value (%j) into the same 500',
    (thrownValue) => {
      const answer = toErrorAnswer(thrownValue);
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: INTERNAL_ERROR_MESSAGE, code: 'internal_error' });
      expect(answer.unexpected).toBe(true);
    },
  );
});
