import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  compilePath,
  createRouter,
  defineRoute,
  functionIdOf,
  pathParameterNames,
  routeFunctions,
  routeKeyOf,
  type AnyRoute,
  type HttpMethod,
} from '../../../shared/http/route';
import { routeList, routes } from '../../../shared/http/routes';

function route(id: string, method: HttpMethod, path: string): AnyRoute {
  return defineRoute({
    id,
    method,
    path,
    handler: `functions/test/${id}.ts`,
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
    tag: 'Test',
    summary: id,
    request: { params: z.object({}) },
    responses: { 200: { description: 'ok' } },
  });
}

describe('pathParameterNames', () => {
  it('lists the parameters of a template in order', () => {
    expect(pathParameterNames('/api/invoice/{invoice_id}/items/{itemId}')).toEqual(['invoice_id', 'itemId']);
    expect(pathParameterNames('/api/balance')).toEqual([]);
  });
});

describe('compilePath', () => {
  it('matches a static path exactly', () => {
    const match = compilePath('/api/balance');
    expect(match('/api/balance')).toEqual({});
    expect(match('/api/balance/')).toBeNull();
    expect(match('/api/balances')).toBeNull();
    expect(match('/x/api/balance')).toBeNull();
  });

  it('treats regex characters of the template literally', () => {
    const match = compilePath('/developers/openapi.yaml');
    expect(match('/developers/openapi.yaml')).toEqual({});
    expect(match('/developers/openapiXyaml')).toBeNull();
  });

  it('captures one segment per parameter', () => {
    const match = compilePath('/api/invoice/{invoice_id}');
    expect(match('/api/invoice/inv_123')).toEqual({ invoice_id: 'inv_123' });
    expect(match('/api/invoice/')).toBeNull();
    expect(match('/api/invoice/a/b')).toBeNull();
    expect(match('/api/invoice')).toBeNull();
  });

  it('captures several parameters', () => {
    const match = compilePath('/api/customer/{customer_id}/card/{card_id}');
    expect(match('/api/customer/cus_1/card/card_2')).toEqual({ customer_id: 'cus_1', card_id: 'card_2' });
    expect(match('/api/customer/cus_1/cards/card_2')).toBeNull();
  });

  it('URL-decodes parameters', () => {
    const match = compilePath('/api/cep/search/{cep}');
    expect(match('/api/cep/search/50000%2D000')).toEqual({ cep: '50000-000' });
    expect(match('/api/cep/search/a%20b')).toEqual({ cep: 'a b' });
    expect(match('/api/cep/search/a%2Fb')).toEqual({ cep: 'a/b' });
    expect(match('/api/cep/search/S%C3%A3o%20Paulo')).toEqual({ cep: 'São Paulo' });
  });

  it('keeps a parameter that is not valid percent-encoding as it came', () => {
    expect(compilePath('/api/cep/search/{cep}')('/api/cep/search/100%')).toEqual({ cep: '100%' });
    expect(compilePath('/api/cep/search/{cep}')('/api/cep/search/%E0%A4%A')).toEqual({ cep: '%E0%A4%A' });
  });
});

describe('createRouter', () => {
  const table = [
    route('GetInvoice', 'GET', '/api/invoice/{invoice_id}'),
    route('CancelInvoice', 'DELETE', '/api/invoice/{invoice_id}'),
    route('ListInvoices', 'GET', '/api/invoice'),
    route('CreateInvoice', 'POST', '/api/invoice'),
  ];
  const find = createRouter(table);

  it('finds the route and its parameters', () => {
    const match = find('GET', '/api/invoice/inv_1');
    expect(match.kind).toBe('found');
    if (match.kind !== 'found') return;
    expect(match.route.id).toBe('GetInvoice');
    expect(match.params).toEqual({ invoice_id: 'inv_1' });
    const cancel = find('DELETE', '/api/invoice/inv%201');
    expect(cancel).toMatchObject({ kind: 'found', params: { invoice_id: 'inv 1' } });
    expect(cancel.kind === 'found' && cancel.route.id).toBe('CancelInvoice');
  });

  it('matches the method case-insensitively', () => {
    const match = find('post', '/api/invoice');
    expect(match.kind === 'found' && match.route.id).toBe('CreateInvoice');
  });

  it('answers method with the allowed methods for a known path and another method', () => {
    expect(find('PUT', '/api/invoice/inv_1')).toEqual({ kind: 'method', allowed: ['GET', 'DELETE'] });
    expect(find('PATCH', '/api/invoice')).toEqual({ kind: 'method', allowed: ['GET', 'POST'] });
  });

  it('answers none for an unknown path', () => {
    expect(find('GET', '/api/nope')).toEqual({ kind: 'none' });
    expect(find('GET', '/api/invoice/inv_1/extra')).toEqual({ kind: 'none' });
    expect(find('GET', '/')).toEqual({ kind: 'none' });
  });

  it('routes the real route table', () => {
    const real = createRouter(routeList);
    const auth = real('POST', '/api/auth');
    expect(auth.kind === 'found' && auth.route).toBe(routes.authToken);
    const balance = real('GET', '/api/balance');
    expect(balance.kind === 'found' && balance.route).toBe(routes.balance);
    expect(real('DELETE', '/api/auth')).toEqual({ kind: 'method', allowed: ['POST'] });
    expect(real('GET', '/api/nope')).toEqual({ kind: 'none' });
  });
});

describe('routeFunctions: the function serving each route', () => {
  const row = (id: string, handler: string, fn?: string): AnyRoute => ({ ...route(id, 'GET', `/x/${id}`), handler, ...(fn ? { fn } : {}) });

  it('gives each route its own function, named by its id, unless it shares one', () => {
    const groups = routeFunctions([row('A', 'functions/a.ts'), row('B', 'functions/p.ts', 'Panel'), row('C', 'functions/p.ts', 'Panel')]);
    expect([...groups.keys()]).toEqual(['A', 'Panel']);
    expect(groups.get('Panel')?.map((r) => r.id)).toEqual(['B', 'C']);
    expect(functionIdOf(row('A', 'functions/a.ts'))).toBe('A');
    expect(routeKeyOf(row('A', 'functions/a.ts'))).toBe('GET /x/A');
  });

  it('refuses rows sharing a function but not its handler module, and a shared function named like a route', () => {
    expect(() => routeFunctions([row('B', 'functions/p.ts', 'Panel'), row('C', 'functions/q.ts', 'Panel')])).toThrow(/share function Panel/);
    expect(() => routeFunctions([row('A', 'functions/a.ts'), row('B', 'functions/p.ts', 'A')])).toThrow(/another route's id/);
  });

  it("keeps the route table's functions one per route, but for the shared ones", () => {
    const groups = routeFunctions(routeList);
    expect(groups.size).toBe(
      routeList.length - routeList.filter((r) => r.fn !== undefined).length + new Set(routeList.flatMap((r) => (r.fn ? [r.fn] : []))).size,
    );
  });
});
