import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routeList } from '../../shared/http/routes';
import { bearer, call, newAccount, tokenFor } from '../support/api';

describe('routing and error shapes (spec 7)', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const reply = await call('GET', '/api/does-not-exist');
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toMatch(/application\/json/);
    expect(reply.json).toMatchObject({ error: expect.any(String) });
  });

  it('answers a wrong method on a known path with a JSON 405 and an Allow header', async () => {
    const reply = await call('DELETE', '/api/auth');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
    expect(reply.json).toMatchObject({ error: expect.any(String) });
  });

  it('ignores a body on a route that takes none, and never echoes it', async () => {
    const token = await tokenFor(await newAccount());
    const reply = await call('GET', '/api/balance', { headers: bearer(token), body: '{"card":"4111111111111111"' });
    expect(reply.text).not.toContain('4111');
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('GET /developers/openapi.yaml (spec 9)', () => {
  it('serves the OpenAPI 3.1 document of every route, versioned 2026-10-14', async () => {
    const reply = await call('GET', '/developers/openapi.yaml');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/yaml/);
    const doc = parse(reply.text) as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2026-10-14');
    for (const route of routeList) expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
  });
});
