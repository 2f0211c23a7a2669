import { describe, expect, it } from 'vitest';
import { errorApiResult, JSON_TYPE, serializeResult, toApiResult } from '../../../shared/http/answer';
import { MethodNotAllowedError, RateLimitedError, ValidationError } from '../../../shared/domain/errors';
import { toErrorAnswer } from '../../../shared/http/errors';

describe('serializeResult', () => {
  it('serializes the body as JSON with the JSON content type by default', () => {
    const body = { success: { token: 'pgt_x.y', token_type: 'Bearer', expires_in: 2_592_000 } };
    const answer = serializeResult({ status: 200, body });
    expect(JSON_TYPE).toBe('application/json; charset=utf-8');
    expect(answer).toEqual({ status: 200, body: JSON.stringify(body), contentType: JSON_TYPE, headers: {} });
    expect(JSON.parse(answer.body)).toEqual(body);
  });

  it('keeps headers and a given status', () => {
    const answer = serializeResult({ status: 201, body: { id: 'x' }, headers: { 'Idempotent-Replayed': 'true' } });
    expect(answer.status).toBe(201);
    expect(answer.headers).toEqual({ 'Idempotent-Replayed': 'true' });
  });

  it('takes a string body as is for another content type', () => {
    const yaml = 'openapi: "3.1.0"\ninfo:\n  title: "x"\n';
    const answer = serializeResult({ status: 200, body: yaml, contentType: 'application/yaml; charset=utf-8' });
    expect(answer.body).toBe(yaml);
    expect(answer.contentType).toBe('application/yaml; charset=utf-8');
  });

  it('writes null for a null JSON body', () => {
    expect(serializeResult({ status: 200, body: null }).body).toBe('null');
  });
});

describe('toApiResult', () => {
  it('builds a payload 2.0 response with content type, no-store and nosniff', () => {
    const result = toApiResult({ status: 200, body: '{"a":1}', contentType: JSON_TYPE, headers: {} });
    expect(result).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
      body: '{"a":1}',
      isBase64Encoded: false,
    });
  });

  it('adds the answer headers', () => {
    const result = toApiResult({ status: 200, body: '{}', contentType: JSON_TYPE, headers: { 'Idempotent-Replayed': 'true' } });
    expect(result.headers).toMatchObject({ 'Idempotent-Replayed': 'true', 'Cache-Control': 'no-store', 'Content-Type': JSON_TYPE });
  });
});

describe('errorApiResult', () => {
  it('answers an error as JSON with no-store', () => {
    const result = errorApiResult(toErrorAnswer(new ValidationError({ amount: ['Must be greater than 0'] })));
    expect(result.statusCode).toBe(422);
    expect(result.headers).toMatchObject({ 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' });
    expect(JSON.parse(String(result.body))).toEqual({ error: { amount: ['Must be greater than 0'] } });
    expect(result.isBase64Encoded).toBe(false);
  });

  it('carries the error headers (Allow, Retry-After)', () => {
    const notAllowed = errorApiResult(toErrorAnswer(new MethodNotAllowedError(['POST'])));
    expect(notAllowed.statusCode).toBe(405);
    expect(notAllowed.headers?.Allow).toBe('POST');
    expect(JSON.parse(String(notAllowed.body))).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
    const limited = errorApiResult(toErrorAnswer(new RateLimitedError(12.3)));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers?.['Retry-After']).toBe('13');
  });

  it('answers an unexpected failure with the bare internal error body', () => {
    const result = errorApiResult(toErrorAnswer(new Error('boom at /var/task/index.js:1')));
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(String(result.body))).toEqual({ error: expect.stringMatching(/^Internal error/), code: 'internal_error' });
    expect(result.body).not.toContain('/var/task');
  });
});
