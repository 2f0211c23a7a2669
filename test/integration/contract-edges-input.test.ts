import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { pathParameterNames } from '../../shared/http/route';
import { routeList, routes } from '../../shared/http/routes';
import { accountStore, basic, bearer, call, newAccount, tokenFor, useLocalStackEnvironment, type Reply } from '../support/api';
import { common } from '../support/charges';
import { entryForm, postForm } from '../support/checkout';
import { customerBody } from '../support/customers';
import { invokeRoute } from '../support/invoke-route';

/**
 * Issue 17, items 2 and 3: every identifier that reaches a key is checked for shape and length first
 * (400/401/404, never a 500 from DynamoDB's 2,048-byte key limit), and text fields refuse control,
 * bidi-override, lone-surrogate and invisible-only values with a 422 naming the field, and store NFC.
 */

/** Past DynamoDB's key limit: 3,000 ASCII characters; 2,042 bytes of 2-byte characters; 3- and 4-byte ones just past 2,042 bytes. */
const OVERSIZED: [string, string][] = [
  ['3,000 ASCII characters', 'a'.repeat(3_000)],
  ['2,042 bytes of é', 'é'.repeat(1_021)],
  ['2,043 bytes of €', '€'.repeat(681)],
  ['2,044 bytes of emoji', '😀'.repeat(511)],
];

const errorFields = (reply: { json: unknown }) => Object.keys((reply.json as { error: Record<string, unknown> }).error);

let keys: IssuedKeys;
let auth: Record<string, string>;

beforeAll(async () => {
  useLocalStackEnvironment();
  // This file's in-process calls only: many calls of one account within a minute.
  process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = '100000';
  keys = await newAccount();
  auth = bearer(await tokenFor(keys));
  await creditAccount(accountStore(), keys.account_id, 100_000);
}, 60_000);

describe('identifiers that reach a key: checked before any read (issue 17, item 2)', () => {
  for (const [name, value] of OVERSIZED) {
    it(`POST /api/auth with a public key of ${name} → 401 (through the local gateway), also with a secret of the issued shape`, async () => {
      for (const secret of ['x', `SEC-${'a'.repeat(48)}`, keys.secret_key]) {
        for (const publicKey of [value, `PUB-${value}`]) {
          const reply = await call('POST', '/api/auth', { headers: { authorization: basic(publicKey, secret) } });
          expect(reply.status, reply.text).toBe(401);
          expect(reply.json).toMatchObject({ error: 'Invalid public or secret key' });
        }
      }
      // The real keys still work.
      expect((await call('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } })).status).toBe(200);
    });

    it(`a Bearer token of ${name}, or with parts of it → 401`, async () => {
      for (const token of [value, `pgt_${value}`, `pgt_${value}.${'a'.repeat(43)}`, `pgt_abc.${value}`]) {
        const reply = await invokeRoute(routes.balance, { headers: { authorization: `Bearer ${token}` } });
        expect(reply.status, reply.body).toBe(401);
      }
    });

    it(`an Idempotency-Key of ${name} → 422 naming the header, nothing created`, async () => {
      const reply = await invokeRoute(routes.createPix, { headers: { ...auth, 'idempotency-key': value }, body: common() });
      expect(reply.status, reply.body).toBe(422);
      expect(errorFields(reply)).toEqual(['Idempotency-Key']);
    });

    it(`every path parameter of every route set to ${name} → 400, 401 or 404 (the CEP: 400 past 64 characters), never a 500`, async () => {
      const withParams = routeList.filter((route) => pathParameterNames(route.path).length > 0);
      expect(withParams.length).toBeGreaterThanOrEqual(10);
      for (const route of withParams) {
        const names = pathParameterNames(route.path);
        for (const oversized of names) {
          const params = Object.fromEntries(names.map((n) => [n, n === oversized ? value : n === 'name' ? 'simulated' : 'x']));
          const headers = route.browser ? { 'content-type': 'application/x-www-form-urlencoded' } : auth;
          const reply = await invokeRoute(route, { params, headers, ...(route.method === 'POST' ? { body: route.browser ? 'a=1' : '{}' } : {}) });
          const where = `${route.id} ${oversized} → ${reply.status} ${reply.body.slice(0, 200)}`;
          // A CEP longer than 64 characters is a malformed path parameter (400) before it is a malformed CEP (422).
          const allowed = route.id === routes.searchCep.id ? [400] : [400, 401, 404];
          expect(allowed, where).toContain(reply.status);
        }
      }
    });

    it(`the checkout entry's public_key and tx_ref of ${name} → 422 page naming the field (through the local gateway)`, async () => {
      for (const field of ['public_key', 'tx_ref']) {
        const reply = await postForm('/ext_transfer', entryForm(keys, { [field]: value }));
        expect(reply.status, reply.text.slice(0, 300)).toBe(422);
        expect([...reply.text.matchAll(/<li data-field="([^"]+)">/g)].map((m) => m[1])).toEqual([field]);
      }
    });
  }
});

/** A customer created in-process (the local gateway's per-account limit is not this file's). */
async function createCustomer(body: Record<string, unknown>): Promise<Reply> {
  const reply = await invokeRoute(routes.createCustomer, { headers: auth, body });
  return { status: reply.status, headers: reply.headers, text: reply.body, json: reply.json };
}

describe('text fields (issue 17, item 3): shared/domain/schemas/text.ts', () => {
  it('customer name "\\u0000" → 422 naming name; a\\u001b[31mred in street → 422 naming street; nothing created', async () => {
    const nul = await createCustomer(customerBody({ name: '\u0000' }));
    expect(nul.status, nul.text).toBe(422);
    expect(errorFields(nul)).toEqual(['name']);
    const ansi = await createCustomer(
      customerBody({ zipcode: '01310-100', country_id: 76, state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'a\u001b[31mred', number: '1' }),
    );
    expect(ansi.status, ansi.text).toBe(422);
    expect(errorFields(ansi)).toEqual(['street']);
    const listed = await invokeRoute(routes.listCustomers, { headers: auth, query: { limit: '50' } });
    const names = (listed.json as { customers: { name: string; street: string | null }[] }).customers;
    expect(names.some((c) => c.name === '\u0000' || c.street === 'a\u001b[31mred')).toBe(false);
  });

  it("customer name 'Jose\\u0301 Souza' is stored as 'José Souza' (NFC); a bidi override and a zero-width-only name → 422", async () => {
    const created = await createCustomer(customerBody({ name: 'Jose\u0301 Souza' }));
    expect(created.status, created.text).toBe(200);
    const id = (created.json as { customer: { id: number; name: string } }).customer.id;
    expect((created.json as { customer: { name: string } }).customer.name).toBe('José Souza');
    const read = await invokeRoute(routes.getCustomer, { headers: auth, params: { id: String(id) } });
    expect((read.json as { customer: { name: string } }).customer.name).toBe('José Souza');
    for (const name of ['Ana\u202eazuoS', '\u200b\u200b', '\u2066Ana\u2069', 'Ana\nSouza', 'Ana\ud800']) {
      const refused = await createCustomer(customerBody({ name }));
      expect(refused.status, JSON.stringify(name)).toBe(422);
      expect(errorFields(refused)).toEqual(['name']);
    }
  });

  it('PUT /api/webhook url with a tab or a line break → 422 naming url', async () => {
    for (const url of ['https://exa\tmple.com/hook', 'https://example.com/a\nb', 'https://example.com/\u202ekoob']) {
      const reply = await invokeRoute(routes.putWebhook, { headers: auth, body: { url } });
      expect(reply.status, reply.body).toBe(422);
      expect(errorFields(reply)).toEqual(['url']);
    }
  });

  it("checkout entry: title 'Cafe\\u0301' is stored as 'Café'; a control character in first_name → 422 page naming it", async () => {
    const form = entryForm(keys, { title: 'Cafe\u0301 especial', first_name: 'Jose\u0301' });
    const entered = await postForm('/ext_transfer', form);
    expect(entered.status, entered.text.slice(0, 300)).toBe(303);
    const found = await invokeRoute(routes.getCheckout, { headers: auth, params: { tx_ref: form.tx_ref ?? '' } });
    expect(found.json).toMatchObject({ checkout: { title: 'Café especial', first_name: 'José' } });
    const refused = await postForm('/ext_transfer', entryForm(keys, { first_name: 'Ana\u0007' }));
    expect(refused.status).toBe(422);
    expect([...refused.text.matchAll(/<li data-field="([^"]+)">/g)].map((m) => m[1])).toEqual(['first_name']);
  });
});

/** These need the lines of the report in shared/domain/schemas/charge.ts, invoice.ts and withdraw.ts (another helper's files). */
describe('text fields of the charges and withdrawals (charge.ts, invoice.ts, withdraw.ts)', () => {
  const pix = (fields: Record<string, unknown>) =>
    invokeRoute(routes.createPix, { headers: { ...auth, 'idempotency-key': `ce-${randomUUID()}` }, body: { ...common(), ...fields } });

  it('item_name "\\u0000" → 422 naming item_name; a\\u001b[31mred likewise; invoice_no with a line break → 422', async () => {
    for (const [field, value] of [
      ['item_name', '\u0000'],
      ['item_name', 'a\u001b[31mred'],
      ['item_name', 'a\u009b31mred'],
      ['invoice_no', 'ORD\n1'],
      ['client', '\u202eorP'],
      ['notes', 'a\u0000b'],
    ] as const) {
      const reply = await pix({ [field]: value });
      expect(reply.status, `${field}=${JSON.stringify(value)} ${reply.body.slice(0, 200)}`).toBe(422);
      expect(errorFields(reply)).toEqual([field]);
    }
  });

  it("item_name 'Cafe\\u0301' is stored as 'Café'; notes keep their line breaks (CRLF stored as \\n)", async () => {
    const created = await pix({ item_name: 'Cafe\u0301', notes: 'Linha 1\r\nLinha 2' });
    expect(created.status, created.body.slice(0, 300)).toBe(200);
    const reference = (created.json as { invoice: { reference: string } }).invoice.reference;
    const read = await invokeRoute(routes.getInvoiceByReference, { headers: auth, params: { ref_id: reference } });
    expect(read.json).toMatchObject({ invoice: { item_name: 'Café', notes: 'Linha 1\nLinha 2' } });
  });

  it('boleto instructions take line breaks but not control characters; withdraw description and client refuse them', async () => {
    const boleto = await invokeRoute(routes.createBoleto, {
      headers: { ...auth, 'idempotency-key': `ce-${randomUUID()}` },
      body: { ...common(), customer: 1, instructions: 'a\u0000b' },
    });
    expect(boleto.status).toBe(422);
    expect(errorFields(boleto)).toContain('instructions');
    for (const field of ['description', 'client']) {
      const reply = await invokeRoute(routes.createWithdraw, {
        headers: { ...auth, 'idempotency-key': `ce-${randomUUID()}` },
        body: { amount: 1, pixkey: 'ce@example.com', keytype: 'EMAIL', [field]: 'x\u202ey' },
      });
      expect(reply.status, reply.body.slice(0, 300)).toBe(422);
      expect(errorFields(reply)).toEqual([field]);
    }
  });
});
