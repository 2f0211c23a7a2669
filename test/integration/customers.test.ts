import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { customerBody, fullAddress } from '../support/customers';
import { eventually, scanAll } from '../support/ledger';
import { ROOT } from '../support/local-stack-process';

type Customer = {
  id: number;
  name: string;
  document: string;
  email: string;
  country: { id: number; iso: string } | null;
  state: { uf: string } | null;
  zipcode: string | null;
};

let auth: Record<string, string>;

async function create(body: object, headers: Record<string, string> = auth) {
  return call('POST', '/api/customer', { headers, body });
}

describe('POST /api/customer', () => {
  beforeAll(async () => {
    auth = bearer(await tokenFor(await newAccount()));
  });

  it('creates a customer with a full address and answers the full object (country and state expanded)', async () => {
    const body = customerBody({ ...fullAddress(), phone: '+55 11 3333-4444', mobilephone: '11 98888-7777' });
    const reply = await create(body);
    expect(reply.status).toBe(200);
    const customer = (reply.json as { customer: Customer & Record<string, unknown> }).customer;
    expect(Number.isSafeInteger(customer.id)).toBe(true);
    expect(customer).toMatchObject({
      name: body.name,
      document: body.document,
      document_type: 'CPF',
      email: body.email,
      zipcode: '01310100',
      country: { id: 76, iso: 'BR', name: 'BRAZIL', nicename: 'Brazil', iso3: 'BRA', numcode: 76, phonecode: 55 },
      state: { name: 'São Paulo', uf: 'SP', ibge: 35 },
      city: 'São Paulo',
      district: 'Bela Vista',
      street: 'Avenida Paulista',
      number: '1000',
      phone: '+55 11 3333-4444',
      mobilephone: '11 98888-7777',
    });
  });

  it('creates a customer without an address (name, document, document_type and email are enough)', async () => {
    const reply = await create(customerBody({ document: '11.222.333/0001-81', document_type: 'CNPJ' }));
    expect(reply.status).toBe(200);
    expect((reply.json as { customer: Customer }).customer).toMatchObject({ document: '11222333000181', country: null, state: null, zipcode: null });
  });

  it('answers 422 with each invalid field', async () => {
    const cases: [object, string[]][] = [
      [{}, ['document', 'document_type', 'email', 'name']],
      [customerBody({ document: '529.982.247-26' }), ['document']],
      [customerBody({ document: '11.222.333/0001-81' }), ['document']],
      [customerBody({ document_type: 'RG' }), ['document_type']],
      [customerBody({ email: 'not-an-email' }), ['email']],
      [customerBody({ name: 'x'.repeat(256) }), ['name']],
      [customerBody({ ...fullAddress(), zipcode: '1234' }), ['zipcode']],
      [customerBody({ ...fullAddress(), state: 'XX' }), ['state']],
      [customerBody({ ...fullAddress(), country_id: 99999 }), ['country_id']],
      [customerBody({ ...fullAddress(), country_id: '76' }), ['country_id']],
      [customerBody({ city: 'Recife' }), ['country_id', 'district', 'number', 'state', 'street', 'zipcode']],
    ];
    for (const [body, fields] of cases) {
      const reply = await create(body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((reply.json as { error: Record<string, string[]> }).error).sort(), JSON.stringify(body)).toEqual(fields);
    }
  });

  it('supports Idempotency-Key: a retry replays the same customer and creates no second one', async () => {
    const body = customerBody();
    const key = `cust-${Date.now()}-${Math.random()}`.replace(/[^A-Za-z0-9_.:-]/g, '');
    const first = await create(body, { ...auth, 'idempotency-key': key });
    const second = await create(body, { ...auth, 'idempotency-key': key });
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json).toEqual(first.json);
    const list = await call('GET', `/api/customers?email=${encodeURIComponent(body.email)}`, { headers: auth });
    expect((list.json as { customers: Customer[] }).customers).toHaveLength(1);
  });

  it('stores the taxpayer document only encrypted, and never logs documents or contact data', async () => {
    const body = customerBody({ phone: '+55 81 3456-7890' });
    const logFile = join(ROOT, '.local', `local-stack-${stack().port}.log`);
    const from = readFileSync(logFile, 'utf8').length;
    expect((await create(body)).status).toBe(200);
    const stored = await scanAll({ FilterExpression: 'email = :e', ExpressionAttributeValues: { ':e': body.email } });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(body.document);
    // This request's log line (written asynchronously by the stack process), and everything logged before it.
    const log = await eventually(
      () => readFileSync(logFile, 'utf8'),
      (text) => text.slice(from).includes('"route":"CreateCustomer"'),
      10_000,
    );
    expect(log.slice(from)).toContain('"route":"CreateCustomer"');
    for (const secret of [body.document, body.email, body.name, '3456-7890']) expect(log).not.toContain(secret);
  });

  it('answers 401 without a token', async () => {
    expect((await create(customerBody(), {})).status).toBe(401);
  });
});

describe('GET /api/customer/{id} and GET /api/customers', () => {
  let mine: Customer[];
  let otherAuth: Record<string, string>;
  let otherCustomer: Customer;

  beforeAll(async () => {
    auth = bearer(await tokenFor(await newAccount()));
    otherAuth = bearer(await tokenFor(await newAccount()));
    mine = [];
    const bodies = [
      customerBody({ name: 'José da Silva', email: 'jose.silva@Example.com', phone: '(11) 4000-1234' }),
      customerBody({ name: 'Ana Souza', email: 'ana@example.org', mobilephone: '+55 21 99999-0001' }),
      customerBody({ name: 'Joana Lima', email: 'joana@example.net', document: '11.222.333/0001-81', document_type: 'CNPJ' }),
    ];
    for (const body of bodies) {
      const reply = await create(body);
      mine.push((reply.json as { customer: Customer }).customer);
    }
    otherCustomer = ((await create(customerBody({ name: 'José Outro' }), otherAuth)).json as { customer: Customer }).customer;
  });

  it('returns one customer by id; another account gets 404; a non-numeric id 400; an unknown id 404', async () => {
    const [first] = mine;
    const reply = await call('GET', `/api/customer/${first?.id}`, { headers: auth });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ customer: first });
    expect((await call('GET', `/api/customer/${first?.id}`, { headers: otherAuth })).status).toBe(404);
    expect((await call('GET', `/api/customer/${otherCustomer.id}`, { headers: auth })).status).toBe(404);
    const bad = await call('GET', '/api/customer/abc', { headers: auth });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: expect.any(String) });
    expect((await call('GET', '/api/customer/12345', { headers: auth })).status).toBe(404);
  });

  it("lists only the caller's customers, newest first, with pagination", async () => {
    const reply = await call('GET', '/api/customers', { headers: auth });
    expect(reply.status).toBe(200);
    const body = reply.json as { customers: Customer[]; pagination: { page: number; limit: number } };
    expect(body.pagination).toEqual({ page: 1, limit: 10 });
    expect(body.customers.map((c) => c.id)).toEqual([...mine].reverse().map((c) => c.id));
    const page2 = (await call('GET', '/api/customers?page=2&limit=2', { headers: auth })).json as { customers: Customer[]; pagination: object };
    expect(page2.pagination).toEqual({ page: 2, limit: 2 });
    expect(page2.customers.map((c) => c.id)).toEqual([mine[0]?.id]);
  });

  it('filters partially: name and email ignore case, document and phones by digits', async () => {
    const ids = async (query: string) =>
      ((await call('GET', `/api/customers?${query}`, { headers: auth })).json as { customers: Customer[] }).customers.map((c) => c.id);
    expect(await ids('name=JOS')).toEqual([mine[0]?.id]);
    expect(await ids('name=jo')).toEqual([mine[2]?.id, mine[0]?.id]);
    expect(await ids('email=EXAMPLE.COM')).toEqual([mine[0]?.id]);
    expect(await ids('document=222.333')).toEqual([mine[2]?.id]);
    expect(await ids('phone=4000')).toEqual([mine[0]?.id]);
    expect(await ids('mobilephone=99999')).toEqual([mine[1]?.id]);
    expect(await ids('name=nobody')).toEqual([]);
  });

  it('answers 422 for a bad query', async () => {
    for (const query of ['limit=51', 'limit=0', 'page=0', 'page=abc', `name=${'x'.repeat(256)}`]) {
      const reply = await call('GET', `/api/customers?${query}`, { headers: auth });
      expect(reply.status, query).toBe(422);
      expect(typeof (reply.json as { error: unknown }).error).toBe('object');
    }
  });
});
