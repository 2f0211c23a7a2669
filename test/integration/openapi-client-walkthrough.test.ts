import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { admin, basic, newAccount, stack } from '../support/api';
import type { paths } from '../support/generated/openapi';
import { eventually } from '../support/ledger';
import { expectConforms, servedContract } from '../support/openapi-check';
import { type Receiver, startReceiver } from '../support/webhook-receiver';
import { PAYMENT_METHODS } from '../../shared/domain/payment-methods';

/**
 * The README's walk-through ("Walk-through with curl") run by a merchant's typed client: openapi-fetch
 * over the types openapi-typescript generated from the served document (test/support/generated/openapi.d.ts).
 * Every answer also goes through the contract check, and every webhook the receiver gets is checked
 * against the document's `webhooks`.
 */

/** The client's fetch: the real one, with each answer checked against the served OpenAPI document. */
async function checkedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  await expectConforms({ method: request.method, url: url.pathname + url.search, status: response.status, headers, body: await response.clone().text() });
  return response;
}

// 127.0.0.12: a receiver address of test/support/tls.ts no other test file listens on.
const RECEIVER_IP = '127.0.0.12';

describe('the README walk-through through the typed client (openapi-typescript + openapi-fetch)', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver(RECEIVER_IP);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('authenticates, registers a customer, charges Pix and card, is paid, withdraws, reads the statement, sets webhooks and reads the document', async () => {
    const keys = await newAccount([...PAYMENT_METHODS]);
    const accountId = keys.account_id;
    const client = createClient<paths>({ baseUrl: stack().baseUrl, fetch: checkedFetch });

    // 1. Keys → Bearer token
    const auth = await client.POST('/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } });
    expect(auth.response.status).toBe(200);
    expect(auth.data?.success.token_type).toBe('Bearer');
    const token = auth.data?.success.token ?? '';
    const api = createClient<paths>({ baseUrl: stack().baseUrl, fetch: checkedFetch, headers: { authorization: `Bearer ${token}` } });

    // 2. Authenticated call
    expect((await api.GET('/api/balance')).data?.balance).toEqual({ available: '0.00', reserved: '0.00', currency: 'BRL' });
    // (Step 6's webhook URL is set first here, so the receiver also gets the payment and withdrawal events.)
    const set = await api.PUT('/api/webhook', { body: { url: `https://${RECEIVER_IP}:8443/hooks` } });
    expect(set.data?.webhook.secret).toMatch(/^whsec_/);

    // 3. Customers and reference data
    const created = await api.POST('/api/customer', {
      params: { header: { 'Idempotency-Key': `customer-${Date.now()}` } },
      body: {
        name: 'Maria Silva',
        document: '529.982.247-25',
        document_type: 'CPF',
        email: 'maria@example.com',
        zipcode: '01310-100',
        country_id: 76,
        state: 'SP',
        city: 'São Paulo',
        district: 'Bela Vista',
        street: 'Avenida Paulista',
        number: '1000',
      },
    });
    expect(created.response.status).toBe(200);
    const customerId = created.data?.customer.id ?? 0;
    const found = await api.GET('/api/customers', { params: { query: { name: 'maria' } } });
    expect(found.data?.customers.map((c) => c.id)).toEqual([customerId]);
    expect((await api.GET('/api/cep/search/{cep}', { params: { path: { cep: '01310-100' } } })).data?.address.city).toBe('São Paulo');
    expect((await api.GET('/api/state/all')).data?.states).toHaveLength(27);

    // 4. Charges: Pix, boleto, card
    const pix = await api.POST('/api/pix/create', {
      params: { header: { 'Idempotency-Key': `order-1001-pix-${Date.now()}` } },
      body: { amount: 100, quantity: 2, tax: 5, discount: 10, invoice_no: '1001', due_date: '2030-01-31', item_name: 'Camiseta' },
    });
    expect(pix.data?.invoice.total).toBe('190.00');
    const pixInvoice = pix.data?.invoice;
    const boleto = await api.POST('/api/boleto/create', {
      body: { amount: 10, quantity: 1, discount: 0, invoice_no: '1003', due_date: '2030-01-31', item_name: 'Caneca', customer: customerId },
    });
    expect(boleto.data?.invoice.status).toBe('PENDING');
    const card = await api.POST('/api/creditcard/create', {
      body: {
        amount: 50,
        quantity: 1,
        tax: 0,
        discount: 0,
        invoice_no: '1002',
        due_date: '2030-01-31',
        item_name: 'Caneca',
        email: 'maria@example.com',
        installments: 1,
        creditcard_holder: 'MARIA SILVA',
        creditcard_number: '4111111111111111',
        creditcard_cvv: '123',
        creditcard_month: 12,
        creditcard_year: 2030,
        creditcard_brand: 'visa',
      },
    });
    expect(card.data?.invoice.status).toBe('PAID');
    const declined = await api.POST('/api/creditcard/create', {
      body: { ...cardBody(), creditcard_number: '4000000000000002' },
    });
    expect(declined.response.status).toBe(400);
    expect(declined.error).toMatchObject({ error: expect.any(String) });

    // The simulated provider confirms the Pix payment (the operator CLI, as in the README).
    expect((await admin('provider', 'pix-paid', '--txid', pixInvoice?.txid ?? '')).code).toBe(0);
    const paid = await api.GET('/api/invoice/ref/{ref_id}', { params: { path: { ref_id: pixInvoice?.reference ?? '' } } });
    expect(paid.data?.invoice.status).toBe('PAID');
    const invoices = await api.GET('/api/invoices', { params: { query: { limit: 5 } } });
    expect(invoices.data?.invoices.map((i) => i.reference)).toEqual(expect.arrayContaining([pixInvoice?.reference, card.data?.invoice.reference]));
    expect((await api.GET('/api/balance')).data?.balance.available).toBe('240.00');

    // 5. Pix withdrawal (Idempotency-Key required), paid by the bank
    expect((await admin('account', 'credit', '--account', accountId, '--amount', '100.00')).code).toBe(0);
    const withdraw = await api.POST('/api/pixout/create', {
      params: { header: { 'Idempotency-Key': `payout-${Date.now()}` } },
      body: { amount: 25.5, pixkey: 'maria@example.com', keytype: 'EMAIL', description: 'Fornecedor' },
    });
    expect(withdraw.data?.withdraw.status).toBe('PENDING');
    const reference = withdraw.data?.withdraw.reference ?? '';
    expect((await admin('provider', 'withdraw', '--reference', reference, '--outcome', 'paid')).code).toBe(0);
    const paidOut = await api.GET('/api/pixout/list', { params: { query: { status: 'PAID' } } });
    expect(paidOut.data?.withdrawals.map((w) => w.reference)).toEqual([reference]);
    expect((await api.GET('/api/pixout/withdraw/{txid}', { params: { path: { txid: reference } } })).data?.withdraw.status).toBe('PAID');

    // 5b. The statement adds up to the balance
    const balance = (await api.GET('/api/balance')).data?.balance.available ?? '';
    expect(balance).toBe('314.50');
    const statement = await api.GET('/api/balance/transactions', { params: { query: { limit: 50 } } });
    const cents = (statement.data?.transactions ?? []).reduce((sum, entry) => sum + Math.round(Number(entry.amount) * 100), 0);
    expect(cents).toBe(31450);
    expect(statement.data?.transactions.map((t) => t.type)).toEqual(expect.arrayContaining(['withdrawal', 'adjustment', 'payment']));

    // 6. Webhooks (the URL set above, its secret shown once): queue a ping, read the deliveries
    expect((await api.GET('/api/webhook')).data?.webhook).toMatchObject({ url: `https://${RECEIVER_IP}:8443/hooks`, secret_configured: true });
    const ping = await api.POST('/api/webhook/test');
    expect(ping.response.status).toBe(202);
    const delivered = await eventually(
      () => receiver.received.filter((r) => r.headers['service-event-id'] === ping.data?.event_id),
      (list) => list.length > 0,
    );
    expect(delivered).toHaveLength(1);
    const deliveries = await eventually(
      async () => (await api.GET('/api/webhook/deliveries')).data?.deliveries ?? [],
      (list) => list.some((d) => d.event_id === ping.data?.event_id && d.status === 'succeeded'),
      15_000,
      1_000,
    );
    expect(deliveries.find((d) => d.event_id === ping.data?.event_id)?.status).toBe('succeeded');

    // 7. Errors have one shape
    const anonymous = createClient<paths>({ baseUrl: stack().baseUrl, fetch: checkedFetch });
    const unauthorized = await anonymous.GET('/api/balance');
    expect(unauthorized.response.status).toBe(401);
    expect(unauthorized.error).toMatchObject({ code: 'unauthorized' });

    // 8. The OpenAPI 3.1 document
    const document = await anonymous.GET('/developers/openapi.yaml', { parseAs: 'text' });
    expect((parse(document.data ?? '') as { openapi: string }).openapi).toBe('3.1.0');
  }, 60_000);

  it('received only webhooks the document declares, each body valid against its event schema', async () => {
    const contract = await servedContract();
    const document = parse(await (await fetch(new URL('/developers/openapi.yaml', stack().baseUrl))).text()) as {
      webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } } } }>;
    };
    const types = await eventually(
      () => receiver.received.map((delivery) => (JSON.parse(delivery.body) as { type: string }).type),
      (seen) => ['invoice.paid', 'pixout.paid', 'ping'].every((type) => seen.includes(type)),
    );
    expect(types).toEqual(expect.arrayContaining(['invoice.paid', 'pixout.paid', 'ping']));
    const invalid = receiver.received.flatMap((delivery) => {
      const event = JSON.parse(delivery.body) as { type: string };
      const schema = document.webhooks[event.type]?.post.requestBody.content['application/json'].schema;
      if (!schema) return [`${event.type}: not in the document's webhooks`];
      const errors = contract.validate(schema, event);
      return errors ? [`${event.type}: ${errors}`] : [];
    });
    expect(invalid).toEqual([]);
  });
});

function cardBody() {
  return {
    amount: 5,
    quantity: 1,
    tax: 0,
    discount: 0,
    invoice_no: '1004',
    due_date: '2030-01-31',
    item_name: 'Caneca',
    email: 'maria@example.com',
    installments: 1,
    creditcard_holder: 'MARIA SILVA',
    creditcard_number: '4111111111111111',
    creditcard_cvv: '123',
    creditcard_month: 12,
    creditcard_year: 2030,
    creditcard_brand: 'visa',
  };
}
