import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, tokenFor, uniqueIp, withinOneWindow } from '../support/api';

let auth: Record<string, string>;

describe('reference data', () => {
  beforeAll(async () => {
    auth = bearer(await tokenFor(await newAccount()));
  });

  it('GET /api/country/all lists ISO countries with the spec fields; Brazil has the fixed id 76', async () => {
    const reply = await call('GET', '/api/country/all', { headers: auth });
    expect(reply.status).toBe(200);
    const countries = (reply.json as { countries: Record<string, unknown>[] }).countries;
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(countries.find((c) => c.iso === 'BR')).toEqual({ id: 76, iso: 'BR', name: 'BRAZIL', nicename: 'Brazil', iso3: 'BRA', numcode: 76, phonecode: 55 });
    expect(countries.find((c) => c.iso === 'PT')).toMatchObject({ id: 620, iso3: 'PRT', phonecode: 351 });
    expect(new Set(countries.map((c) => c.id)).size).toBe(countries.length);
  });

  it('GET /api/state/all lists the 27 UFs with IBGE codes and area codes', async () => {
    const reply = await call('GET', '/api/state/all', { headers: auth });
    expect(reply.status).toBe(200);
    const states = (reply.json as { states: { name: string; uf: string; ibge: number; ddd: string }[] }).states;
    expect(states).toHaveLength(27);
    expect(states.find((s) => s.uf === 'PE')).toEqual({ name: 'Pernambuco', uf: 'PE', ibge: 26, ddd: '81,87' });
    expect(states.find((s) => s.uf === 'DF')).toEqual({ name: 'Distrito Federal', uf: 'DF', ibge: 53, ddd: '61' });
  });

  it('needs a Bearer token like every /api route', async () => {
    expect((await call('GET', '/api/country/all')).status).toBe(401);
    expect((await call('GET', '/api/state/all')).status).toBe(401);
    expect((await call('GET', '/api/cep/search/01310100')).status).toBe(401);
  });
});

describe('GET /api/cep/search/{cep}', () => {
  beforeAll(async () => {
    auth = bearer(await tokenFor(await newAccount()));
  });

  it('answers the address of a CEP, with or without the hyphen, and caches it', async () => {
    const reply = await call('GET', '/api/cep/search/20040-020', { headers: auth });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ address: { zipcode: '20040020', state: 'RJ', city: 'Rio de Janeiro', district: 'Centro', street: 'Avenida Rio Branco' } });
    const store = accountStore();
    const cached = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.cep('20040020'), ConsistentRead: true }));
    expect(cached.Item?.address).toEqual((reply.json as { address: unknown }).address);
    expect(Number(cached.Item?.ttl)).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
    expect((await call('GET', '/api/cep/search/20040020', { headers: auth })).json).toEqual(reply.json);
  });

  it('answers 422 for a malformed CEP, 404 for an unknown one, 503 when the sources are down', async () => {
    for (const cep of ['0131', '013101000', 'abcdefgh', '01310_100']) {
      const reply = await call('GET', `/api/cep/search/${cep}`, { headers: auth });
      expect(reply.status, cep).toBe(422);
      expect(reply.json).toEqual({ error: { cep: [expect.any(String)] } });
    }
    const unknown = await call('GET', '/api/cep/search/11111111', { headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: expect.any(String) });
    const down = await call('GET', '/api/cep/search/00000000', { headers: auth });
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ error: expect.any(String) });
  });

  it('is limited to 30 calls per minute per IP, with Retry-After', async () => {
    const ip = uniqueIp();
    await withinOneWindow();
    const replies = await Promise.all(Array.from({ length: 34 }, () => call('GET', '/api/cep/search/01310100', { headers: auth, sourceIp: ip })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(30);
    const limited = replies.filter((r) => r.status === 429);
    expect(limited).toHaveLength(4);
    for (const reply of limited) expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/api/cep/search/01310100', { headers: auth, sourceIp: uniqueIp() })).status).toBe(200);
  });
});

describe('OpenAPI document', () => {
  it('lists the customer and reference routes with their schemas', async () => {
    const doc = parse((await call('GET', '/developers/openapi.yaml')).text) as {
      paths: Record<string, Record<string, { requestBody?: unknown; parameters?: { name: string }[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.paths['/api/customer']?.post?.requestBody).toBeDefined();
    expect(doc.paths['/api/customer']?.post?.parameters?.map((p) => p.name)).toContain('Idempotency-Key');
    expect(doc.paths['/api/customer/{id}']?.get?.parameters?.map((p) => p.name)).toContain('id');
    expect(doc.paths['/api/customers']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'document', 'name', 'email', 'phone', 'mobilephone']),
    );
    expect(doc.paths['/api/cep/search/{cep}']?.get?.responses).toHaveProperty('503');
    for (const name of ['Customer', 'CreateCustomer', 'Country', 'State', 'CountryList', 'StateList', 'CepAddress'])
      expect(doc.components.schemas).toHaveProperty(name);
  });
});
