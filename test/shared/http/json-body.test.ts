import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BadRequestError, DomainError } from '../../../shared/domain/errors';
import { toErrorAnswer } from '../../../shared/http/errors';
import { jsonBody, MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../../../shared/http/middleware/json-body';
import { defineRoute, type AnyRoute } from '../../../shared/http/route';
import type { PipelineRequest } from '../../../shared/http/state';

const withBody = defineRoute({
  id: 'TakesBody',
  method: 'POST',
  path: '/t',
  handler: 'x.ts',
  auth: 'none',
  rateLimit: 'none',
  access: 'none',
  idempotency: 'none',
  tag: 'T',
  summary: 't',
  request: { body: z.object({ a: z.number() }) },
  responses: {},
}) as AnyRoute;
const withoutBody = { ...withBody, id: 'NoBody', request: {} } as AnyRoute;

/** Runs the middleware on a request; answers the parsed body, or the error it threw. */
async function run(body: string | undefined, options: { route?: AnyRoute; base64?: boolean } = {}): Promise<{ body?: unknown; error?: DomainError }> {
  const request = {
    event: { body: options.base64 && body !== undefined ? Buffer.from(body).toString('base64') : body, isBase64Encoded: options.base64 ?? false, headers: {} },
    context: { state: { route: options.route ?? withBody } },
  } as unknown as PipelineRequest;
  try {
    await jsonBody().before?.(request);
    return { body: request.event.body };
  } catch (err) {
    if (err instanceof DomainError) return { error: err };
    throw err;
  }
}

/** The status the client gets for an error the middleware threw. */
const statusOf = (error: DomainError | undefined): number | undefined => (error ? toErrorAnswer(error).status : undefined);

describe('jsonBody', () => {
  it('parses a JSON object (text or base64, with or without a Content-Type)', async () => {
    expect(await run('{"a":1}')).toEqual({ body: { a: 1 } });
    expect(await run('{"a":1}', { base64: true })).toEqual({ body: { a: 1 } });
  });

  it('answers 413 payload_too_large past 1 MB on every route, measuring bytes (base64 decoded)', async () => {
    const over = `{"a":1,"p":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
    for (const route of [withBody, withoutBody]) {
      const { error } = await run(over, { route });
      expect(statusOf(error)).toBe(413);
      expect(error?.code).toBe('payload_too_large');
    }
    expect(statusOf((await run(over, { base64: true })).error)).toBe(413);
    // 600,000 two-byte characters: 1.2 MB of UTF-8, though fewer than 1 M characters.
    expect(statusOf((await run(`{"a":1,"p":"${'é'.repeat(600_000)}"}`)).error)).toBe(413);
    const exact = `{"a":1,"p":"${'x'.repeat(MAX_BODY_BYTES - 14)}"}`;
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    expect((await run(exact)).error).toBeUndefined();
  });

  it('leaves the body alone on routes that take none (under the size limit)', async () => {
    expect(await run('not json', { route: withoutBody })).toEqual({ body: 'not json' });
  });

  it.each([
    ['nothing', '', 'must be a JSON object'],
    ['blanks', '  ', 'must be a JSON object'],
    ['an array', '[]', 'must be a JSON object'],
    ['null', 'null', 'must be a JSON object'],
    ['a string', '"text"', 'must be a JSON object'],
    ['broken JSON', '{', 'not valid JSON'],
    ['two objects', '{"a":1}{"b":2}', 'not valid JSON'],
    ['a __proto__ key', '{"__proto__":{"x":1}}', 'forbidden key'],
    ['33 levels of nesting', `{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`, `deeper than ${MAX_JSON_DEPTH}`],
    ['200,000 open brackets', '['.repeat(200_000), `deeper than ${MAX_JSON_DEPTH}`],
  ])('answers 400 invalid_body for %s', async (_label, body, message) => {
    const { error } = await run(body);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.code).toBe('invalid_body');
    expect(error?.message).toContain(message);
  });

  it('takes 32 levels of nesting', async () => {
    const depth = MAX_JSON_DEPTH - 1;
    expect((await run(`{"a":1,"n":${'['.repeat(depth)}${']'.repeat(depth)}}`)).error).toBeUndefined();
  });

  it('answers 400 duplicate_key for a key repeated in one object, naming it', async () => {
    const { error } = await run('{"a":1,"b":{"c":1,"c":2}}');
    expect(statusOf(error)).toBe(400);
    expect(error?.code).toBe('duplicate_key');
    expect(error?.message).toContain('"c"');
    expect((await run('{"a":1,"\\u0061":2}')).error?.code).toBe('duplicate_key');
  });
});
