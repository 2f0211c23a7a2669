import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { invoke, readEvent } from '../../../events/invoke';
import { handler } from '../../../functions/meta/not-found';
import { lambdaContext } from '../../../infra/local/apigw-event';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const eventFile = (name: string) => join(ROOT, 'events', 'apigw', name);
const sample = (name: string) => readEvent(eventFile(name)) as APIGatewayProxyEventV2;

/** A sample event moved to another method and path, as API Gateway's $default route would deliver it. */
function withRequest(method: string, path: string): APIGatewayProxyEventV2 {
  const base = sample('not-found.json');
  return { ...base, rawPath: path, requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method, path } } };
}

async function call(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return handler(event, lambdaContext('Fallback'));
}

function jsonBody(result: APIGatewayProxyStructuredResultV2): unknown {
  expect(result.headers?.['Content-Type']).toMatch(/^application\/json/);
  return JSON.parse(String(result.body));
}

describe('functions/meta/not-found handler', () => {
  it('answers 404 JSON {error, code: not_found} for an unknown path (events/apigw/not-found.json)', async () => {
    const result = await call(sample('not-found.json'));
    expect(result.statusCode).toBe(404);
    const body = jsonBody(result) as { error: unknown; code: unknown };
    expect(body.code).toBe('not_found');
    expect(typeof body.error).toBe('string');
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(result.headers?.['Cache-Control']).toBe('no-store');
    expect(result.headers?.Allow).toBeUndefined();
  });

  it('answers 405 with Allow: POST for DELETE /api/auth (events/apigw/method-not-allowed.json)', async () => {
    const result = await call(sample('method-not-allowed.json'));
    expect(result.statusCode).toBe(405);
    expect(result.headers?.Allow).toBe('POST');
    expect(jsonBody(result)).toEqual({ error: expect.any(String), code: 'method_not_allowed' });
  });

  it('answers 405 with Allow: GET for POST /api/balance', async () => {
    const result = await call(withRequest('POST', '/api/balance'));
    expect(result.statusCode).toBe(405);
    expect(result.headers?.Allow).toBe('GET');
  });

  it('answers 404 for a path that only resembles a route', async () => {
    for (const path of ['/api/auth/extra', '/api/balance/', '/API/AUTH', '/developers/openapiXyaml']) {
      const result = await call(withRequest('GET', path));
      expect(result.statusCode, path).toBe(404);
      expect(jsonBody(result), path).toMatchObject({ code: 'not_found' });
    }
  });

  it('is what events/invoke.ts runs for a sample event', async () => {
    const result = (await invoke(join(ROOT, 'functions', 'meta', 'not-found.ts'), eventFile('method-not-allowed.json'))) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(405);
    expect(result.headers?.Allow).toBe('POST');
  });
});
