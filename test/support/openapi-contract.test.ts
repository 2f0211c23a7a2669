import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { routeList, routes } from '../../shared/http/routes';
import { compileContract, type ObservedAnswer } from './openapi-contract';

const JSON_TYPE = 'application/json; charset=utf-8';
const document = buildOpenApiDocument(routeList);
const contract = compileContract(document, routeList);
const answer = (overrides: Partial<ObservedAnswer>): ObservedAnswer => ({
  method: 'GET',
  url: '/api/balance',
  status: 200,
  headers: { 'content-type': JSON_TYPE },
  body: JSON.stringify({ balance: { available: '10.00', reserved: '0.00', currency: 'BRL' } }),
  ...overrides,
});

describe('compileContract (the check every integration answer goes through)', () => {
  it('passes an answer the document describes', () => {
    expect(contract.violations(answer({}))).toEqual([]);
    expect(contract.violations(answer({ url: '/api/invoice/ref/INV-ABC123', status: 404, body: '{"error":"Not found","code":"not_found"}' }))).toEqual([]);
  });

  it('fails a status the operation does not declare, naming the operation and the status', () => {
    expect(contract.violations(answer({ status: 418, body: '{"error":"teapot"}' }))).toEqual([
      expect.stringMatching(/^GetBalance \(GET \/api\/balance\) → 418: status not declared/),
    ]);
  });

  it('fails another content type, and a body that does not match the schema with the ajv error path', () => {
    expect(contract.violations(answer({ headers: { 'content-type': 'text/plain' } }))[0]).toMatch(/content type text\/plain not declared/);
    expect(contract.violations(answer({ body: '{"balance":{"available":10,"currency":"BRL"}}' }))[0]).toMatch(/\/balance\/available must be string/);
    expect(contract.violations(answer({ body: 'not json' }))[0]).toMatch(/not JSON/);
  });

  it('checks declared headers: Retry-After and the RateLimit-* headers on a 429 are required, Retry-After at least 1', () => {
    const limited = { status: 429, body: '{"error":"Rate limit exceeded","code":"rate_limited"}' };
    const quota = { 'ratelimit-limit': '60', 'ratelimit-remaining': '0', 'ratelimit-reset': '12' };
    expect(contract.violations(answer({ ...limited, headers: { 'content-type': JSON_TYPE, 'retry-after': '12', ...quota } }))).toEqual([]);
    expect(contract.violations(answer(limited))[0]).toMatch(/required header Retry-After missing/);
    expect(contract.violations(answer({ ...limited, headers: { 'content-type': JSON_TYPE, 'retry-after': '0', ...quota } }))[0]).toMatch(
      /Retry-After: 0: \/ must be >= 1/,
    );
    expect(contract.violations(answer({ ...limited, headers: { 'content-type': JSON_TYPE, 'retry-after': '12', 'ratelimit-limit': '60' } }))[0]).toMatch(
      /required header RateLimit-Remaining missing/,
    );
  });

  it("checks an HTML route's status and content type only", () => {
    const page = { url: '/checkout/CHK-ABCDEFGH/x', headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html>' };
    expect(contract.violations(answer({ ...page, status: 200 }))).toEqual([]);
    expect(contract.violations(answer({ ...page, status: 410 }))).toEqual([]);
    expect(contract.violations(answer({ ...page, status: 201 }))[0]).toMatch(/CheckoutPage .* 201: status not declared/);
    expect(contract.violations(answer({ ...page, status: 200, headers: { 'content-type': JSON_TYPE } }))[0]).toMatch(/content type/);
  });

  it("passes the $default route's 404 and 405 on paths and methods no route serves, and nothing else there", () => {
    const notFound = { url: '/api/nowhere', status: 404, body: '{"error":"No route for GET /api/nowhere","code":"not_found"}' };
    expect(contract.violations(answer(notFound))).toEqual([]);
    expect(contract.violations(answer({ ...notFound, status: 200 }))[0]).toMatch(/not the \$default route's 404/);
    const wrongMethod = { method: 'DELETE', status: 405, body: '{"error":"Method not allowed","code":"method_not_allowed"}' };
    expect(contract.violations(answer({ ...wrongMethod, headers: { 'content-type': JSON_TYPE, allow: 'GET' } }))).toEqual([]);
    expect(contract.violations(answer(wrongMethod))[0]).toMatch(/Allow/);
  });

  it('fails an answer of a route the service serves but the document lacks', () => {
    const withoutBalance = compileContract(buildOpenApiDocument(routeList.filter((route) => route.id !== routes.balance.id)), routeList);
    expect(withoutBalance.violations(answer({}))).toEqual([
      expect.stringMatching(/GET \/api\/balance \(GetBalance\) answers 200 but is missing from the OpenAPI document/),
    ]);
  });

  it('reads OpenAPI 3.0 nullable as a null alternative', () => {
    const legacy = compileContract({ openapi: '3.0.3', paths: {}, components: {} }, []);
    expect(legacy.validate({ type: 'string', nullable: true }, null)).toBeUndefined();
    expect(legacy.validate({ type: 'string' }, null)).toMatch(/must be string/);
  });
});
