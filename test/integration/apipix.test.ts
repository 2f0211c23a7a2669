import { pixSweepWorker } from '../../shared/platform/queues';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as balance } from '../../functions/account/balance';
import { handler as createPix } from '../../functions/charges/pix';
import type { LocalHttpServer } from '../../infra/local/http-server';
import { routes } from '../../shared/http/routes';
import { invoiceByTxid } from '../../shared/adapters/dynamo/invoice-lookup';
import { dynamoPixSweep } from '../../shared/adapters/dynamo/invoices';
import { pixSweep } from '../../shared/app/invoices/pix-sweep';
import { pixSweepPorts } from '../../shared/wiring/invoices';
import { idempotentPixIds } from '../../shared/platform/invoice-references';
import { pixProvider } from '../../shared/wiring/provider-registry';
import { getRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import type { TestPsp } from '../support/apipix-psp';
import { type ApiPixEnvironment, startApiPixEnvironment } from '../support/apipix-env';
import { admin, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { common } from '../support/charges';
import { invoke, type Invoked } from '../support/invoke';
import { listedItems } from '../support/ledger';

/**
 * The API Pix adapter end to end, in this process against the local table and a standard-shaped PSP
 * on loopback behind mutual TLS (test/support/apipix-psp.ts): PAYMENT_PROVIDER=apipix here only; the
 * local stack and every other test keep the simulated provider. The PSP's callbacks reach the real
 * handlers through a gateway started in this process.
 */

let psp: TestPsp;
let gateway: LocalHttpServer;
let environment: ApiPixEnvironment;
let auth: Record<string, string>;
let accountId: string;

async function pixCharge(idempotencyKey: string, body: object = common()): Promise<Invoked> {
  return invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': idempotencyKey }, body });
}

async function balanceCents(): Promise<number> {
  const reply = await invoke(balance, routes.balance, { headers: auth });
  expect(reply.status, reply.body).toBe(200);
  const available = (reply.json as { balance: { available: string | number } }).balance.available;
  return Math.round(Number(available) * 100);
}

function callbackUrl(): Promise<string> {
  return environment.callbackUrl();
}

beforeAll(async () => {
  environment = await startApiPixEnvironment();
  ({ psp, gateway } = environment);
  const account = await newAccount();
  accountId = account.account_id;
  auth = bearer(await tokenFor(account));
}, 60_000);

afterAll(async () => {
  await environment?.stop();
});

describe('API Pix charges (PUT /cob/{txid} over mutual TLS, OAuth2 token cached)', () => {
  it("creates the charge at the PSP: the invoice's copy and QR code are the PSP's BR Code, the txid is the cob's", async () => {
    const reply = await pixCharge(`apipix-create-${randomUUID()}`, common({ amount: 25.5, quantity: 2 }));
    expect(reply.status, reply.body).toBe(200);
    const invoice = (reply.json as { invoice: { txid: string; copy: string; total: string; qrcode: string } }).invoice;
    const cob = psp.cobs.get(invoice.txid) as { pixCopiaECola: string; valor: { original: string }; chave: string; status: string };
    expect(cob).toBeDefined();
    expect(invoice.copy).toBe(cob.pixCopiaECola);
    expect(cob.valor.original).toBe(invoice.total);
    expect(cob.chave).toBe(psp.pixKey);
    expect(cob.status).toBe('ATIVA');
    expect(invoice.qrcode).toMatch(/^data:image\/png;base64,/);
    const stored = await invoiceByTxid(getRuntime(), invoice.txid);
    expect(stored?.provider).toBe('apipix');
    // Awaiting its callback: in the Pix sweep's index.
    expect(String(stored?.GSI2PK)).toMatch(/^PIXSWEEP#/);
    const tokens = psp.tokensIssued();
    expect((await pixCharge(`apipix-create-${randomUUID()}`)).status).toBe(200);
    expect(psp.tokensIssued()).toBe(tokens);
  });

  it('a PSP that answers 500 then succeeds: 502, nothing recorded; the retry with the same Idempotency-Key makes ONE charge under the same txid', async () => {
    const key = `apipix-500-${randomUUID()}`;
    const before = psp.cobs.size;
    psp.fail({ method: 'PUT', path: /\/cob\//, times: 1, mode: 'error500' });
    const failed = await pixCharge(key);
    expect(failed.status, failed.body).toBe(502);
    expect(failed.json).toMatchObject({ code: 'upstream_error' });
    expect(psp.cobs.size).toBe(before);
    const retried = await pixCharge(key);
    expect(retried.status, retried.body).toBe(200);
    expect(psp.cobs.size).toBe(before + 1);
    const txid = (retried.json as { invoice: { txid: string } }).invoice.txid;
    const puts = psp.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/cob/${txid}`));
    expect(puts.map((r) => r.status)).toEqual([500, 201]);
  });

  it('a PSP that never answers: 502 within PROVIDER_TIMEOUT_MS, nothing recorded; the retry with the same key uses the same txid and makes one charge', async () => {
    const key = `apipix-timeout-${randomUUID()}`;
    const before = psp.cobs.size;
    psp.fail({ method: 'PUT', path: /\/cob\//, times: 1, mode: 'timeout' });
    const started = Date.now();
    const stalled = await pixCharge(key);
    expect(stalled.status, stalled.body).toBe(502);
    expect(Date.now() - started).toBeLessThan(9_000);
    const held = psp.requests.filter((r) => r.status === 'timeout' && r.method === 'PUT').at(-1);
    expect(held?.path).toMatch(/\/cob\/[A-Za-z0-9]{32}$/);
    const retried = await pixCharge(key);
    expect(retried.status, retried.body).toBe(200);
    expect(held?.path.endsWith(`/cob/${(retried.json as { invoice: { txid: string } }).invoice.txid}`)).toBe(true);
    expect(psp.cobs.size).toBe(before + 1);
  }, 20_000);

  it('an answer lost after the PSP created the charge: the retry meets "txid in use", reads the cob back (same amount) and records that one charge; a replay asks the PSP nothing', async () => {
    const key = `apipix-lost-${randomUUID()}`;
    const body = common({ amount: 31.4, quantity: 1, tax: 0, discount: 0 });
    const { reference, txid } = idempotentPixIds(accountId, key);
    // The first attempt's PUT reached the PSP; its answer never came back.
    await pixProvider(getRuntime().config).charges.pix({
      reference,
      txid,
      amountCents: 3140,
      dueDate: String(body.due_date),
      merchantName: 'M',
      payer: {},
    });
    const before = psp.cobs.size;
    const retried = await pixCharge(key, body);
    expect(retried.status, retried.body).toBe(200);
    expect((retried.json as { invoice: { txid: string; copy: string } }).invoice).toMatchObject({
      txid,
      copy: (psp.cobs.get(txid) as { pixCopiaECola: string }).pixCopiaECola,
    });
    expect(psp.cobs.size).toBe(before);
    const puts = psp.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/cob/${txid}`));
    expect(puts.map((r) => r.status)).toEqual([201, 400]);
    const replay = await pixCharge(key, body);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(psp.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/cob/${txid}`))).toHaveLength(2);
  }, 20_000);

  it('a refusal by the PSP (4xx with violations) → 422 provider_rejected with the PSP message; a 4xx without → 400; nothing recorded', async () => {
    const listed = (await listedItems(keys.invoiceListPartition(accountId))).length;
    psp.fail({
      method: 'PUT',
      path: /\/cob\//,
      times: 1,
      mode: {
        status: 400,
        body: {
          type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
          title: 'Cobrança inválida.',
          status: 400,
          detail: 'A requisição que busca alterar ou criar uma cobrança não respeita o schema.',
          violacoes: [{ razao: 'O valor excede o limite.', propriedade: 'cob.valor.original' }],
        },
      },
    });
    const refused = await pixCharge(`apipix-422-${randomUUID()}`);
    expect(refused.status, refused.body).toBe(422);
    expect(refused.json).toMatchObject({ code: 'provider_rejected', error: expect.stringContaining('O valor excede o limite.') });
    psp.fail({ method: 'PUT', path: /\/cob\//, times: 1, mode: { status: 403, body: { title: 'Acesso negado', status: 403 } } });
    const denied = await pixCharge(`apipix-403-${randomUUID()}`);
    // The PSP refusing the gateway's own credentials is not the merchant's doing: 502.
    expect(denied.status, denied.body).toBe(502);
    psp.fail({ method: 'PUT', path: /\/cob\//, times: 1, mode: { status: 409, body: { title: 'Conflito', status: 409, detail: 'Chave bloqueada' } } });
    const conflict = await pixCharge(`apipix-409-${randomUUID()}`);
    expect(conflict.status, conflict.body).toBe(400);
    expect(conflict.json).toMatchObject({ code: 'provider_rejected', error: expect.stringContaining('Chave bloqueada') });
    expect((await listedItems(keys.invoiceListPartition(accountId))).length).toBe(listed);
  });
});

describe('API Pix callbacks (POST <registered URL>/pix), each charge read back from the PSP', () => {
  async function newCharge(amount: number): Promise<{ txid: string; reference: string; totalCents: number }> {
    const reply = await pixCharge(`apipix-cb-${randomUUID()}`, common({ amount, quantity: 1, tax: 0, discount: 0 }));
    expect(reply.status, reply.body).toBe(200);
    const invoice = (reply.json as { invoice: { txid: string; reference: string; total: string } }).invoice;
    return { txid: invoice.txid, reference: invoice.reference, totalCents: Math.round(Number(invoice.total) * 100) };
  }

  it('registers the callback URL with the PSP (PUT /webhook/{chave}); a batched callback of three payments credits each invoice exactly once', async () => {
    const provider = pixProvider(getRuntime().config) as ReturnType<typeof pixProvider> & { registerWebhook(url: string): Promise<void> };
    await provider.registerWebhook(await callbackUrl());
    expect(psp.webhooks.get(psp.pixKey)).toBe(await callbackUrl());
    const charges = [await newCharge(10), await newCharge(20.05), await newCharge(7.77)];
    const before = await balanceCents();
    const payments = charges.map((c) => psp.pay(c.txid));
    const first = await psp.notify(payments);
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ received: true, charges: 3, applied: 3 });
    // The PSP sends it again (as PSPs do on any doubt): nothing moves twice.
    const again = await psp.notify(payments);
    expect(JSON.parse(again.body)).toEqual({ received: true, charges: 3, applied: 0 });
    for (const c of charges) expect((await invoiceByTxid(getRuntime(), c.txid))?.status).toBe('PAID');
    expect(await balanceCents()).toBe(before + charges.reduce((sum, c) => sum + c.totalCents, 0));
    // Each paid invoice left the Pix sweep's index.
    for (const c of charges) expect((await invoiceByTxid(getRuntime(), c.txid))?.GSI2PK).toBeUndefined();
  }, 30_000);

  it('a payment of another amount is not credited (logged and counted as an anomaly); a full refund (devolucoes DEVOLVIDO) moves a paid invoice to REFUNDED', async () => {
    const short = await newCharge(15);
    const before = await balanceCents();
    const underpaid = psp.pay(short.txid, { valor: '14.99' });
    const reply = await psp.notify([underpaid]);
    expect(JSON.parse(reply.body)).toEqual({ received: true, charges: 1, applied: 0 });
    expect((await invoiceByTxid(getRuntime(), short.txid))?.status).toBe('PENDING');
    expect(await balanceCents()).toBe(before);

    const refunded = await newCharge(12);
    const paid = psp.pay(refunded.txid);
    expect(JSON.parse((await psp.notify([paid])).body)).toMatchObject({ applied: 1 });
    psp.refund(refunded.txid);
    expect(JSON.parse((await psp.notify([paid])).body)).toMatchObject({ applied: 1 });
    expect((await invoiceByTxid(getRuntime(), refunded.txid))?.status).toBe('REFUNDED');
    expect(await balanceCents()).toBe(before);
  }, 30_000);

  it('a callback whose body claims a payment the PSP does not hold moves nothing (the lookup decides); a wrong path token is 401', async () => {
    const charge = await newCharge(9);
    const forged = { endToEndId: `E${'1'.repeat(31)}`, txid: charge.txid, valor: '9.00', horario: new Date().toISOString() };
    const reply = await psp.notify([forged]);
    expect(JSON.parse(reply.body)).toEqual({ received: true, charges: 1, applied: 0 });
    expect((await invoiceByTxid(getRuntime(), charge.txid))?.status).toBe('PENDING');
    const wrong = await fetch(`${gateway.url}/provider/apipix/notifications/${'x'.repeat(32)}/pix`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pix: [forged] }),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'invalid_signature' });
  }, 30_000);

  it('a PSP failing the lookup → 502 (the PSP sends the callback again, then it applies)', async () => {
    const charge = await newCharge(5);
    const paid = psp.pay(charge.txid);
    psp.fail({ method: 'GET', path: /\/cob\//, times: 1, mode: 'error500' });
    const failed = await psp.notify([paid]);
    expect(failed.status).toBe(502);
    expect((await invoiceByTxid(getRuntime(), charge.txid))?.status).toBe('PENDING');
    const retried = await psp.notify([paid]);
    expect(JSON.parse(retried.body)).toMatchObject({ applied: 1 });
    expect((await invoiceByTxid(getRuntime(), charge.txid))?.status).toBe('PAID');
  }, 30_000);

  it('the Pix sweep reads back charges whose callback never came: a paid one is credited, a removed one canceled; charges younger than N minutes are not looked up', async () => {
    const paidQuietly = await newCharge(11);
    const expired = await newCharge(3);
    psp.pay(paidQuietly.txid);
    psp.remove(expired.txid);
    const runtime = getRuntime();
    const early = await pixSweep(pixSweepPorts(runtime, pixSweepWorker), new Date(), 60_000);
    expect(early.checked).toBe(0);
    expect((await invoiceByTxid(runtime, paidQuietly.txid))?.status).toBe('PENDING');
    const later = new Date(Date.now() + ((runtime.config.apiPix?.sweepAfterMinutes ?? 30) + 1) * 60_000);
    const outcome = await pixSweep(pixSweepPorts(runtime, pixSweepWorker), later, 60_000);
    expect(outcome.failed).toBe(0);
    expect(outcome.checked).toBeGreaterThanOrEqual(2);
    expect((await invoiceByTxid(runtime, paidQuietly.txid))?.status).toBe('PAID');
    expect((await invoiceByTxid(runtime, expired.txid))?.status).toBe('CANCELED');
  }, 60_000);
});

describe('operator CLI: provider register-webhook and provider reconcile --txid (APIPIX_* from the environment)', () => {
  it('register-webhook registers <ApiUrl>/provider/apipix/notifications/<token> at the PSP and prints it with the token hidden', async () => {
    const result = await admin('provider', 'register-webhook');
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ provider: 'apipix', chave: psp.pixKey, registered: true });
    const registered = String(psp.webhooks.get(psp.pixKey));
    expect(registered.startsWith(`${stack().baseUrl}/provider/apipix/notifications/`)).toBe(true);
    const token = registered.split('/').at(-1) ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(result.stdout).not.toContain(token);
  }, 60_000);

  it('reconcile --txid reads a charge back and applies the payment the PSP holds (once); an unknown txid exits 1', async () => {
    const reply = await pixCharge(`apipix-cli-${randomUUID()}`);
    const txid = (reply.json as { invoice: { txid: string } }).invoice.txid;
    psp.pay(txid);
    const first = await admin('provider', 'reconcile', '--txid', txid);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({
      txid,
      provider: 'apipix',
      pspStatus: 'COMPLETED',
      statusBefore: 'PENDING',
      statusAfter: 'PAID',
      applied: ['paid'],
      anomalies: [],
    });
    const second = await admin('provider', 'reconcile', '--txid', txid);
    expect(second.json).toMatchObject({ statusBefore: 'PAID', statusAfter: 'PAID', applied: [] });
    const unknown = await admin('provider', 'reconcile', '--txid', 'INVZZZZZZ' + 'a'.repeat(23));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No Pix invoice has the txid');
    expect((await admin('provider', 'reconcile', '--txid', 'short')).code).toBe(2);
  }, 90_000);

  it('reconcile --from --to reads the PSP statement of a window and records a payment with no ledger entry (once); bad windows exit 2', async () => {
    const runtime = getRuntime();
    const reply = await pixCharge(`apipix-cli-${randomUUID()}`);
    const txid = (reply.json as { invoice: { txid: string; reference: string } }).invoice.txid;
    const reference = (reply.json as { invoice: { reference: string } }).invoice.reference;
    // Paid in a window of its own (timed two hours ahead: no other test pays then), its callback lost, out of the sweep's index.
    const paidAt = new Date(Date.now() + 2 * 60 * 60_000);
    psp.pay(txid, { horario: paidAt.toISOString() });
    expect(await dynamoPixSweep(runtime.db, runtime.config.tableName).retire(reference)).toBe(true);
    const window = ['--from', new Date(paidAt.getTime() - 1_000).toISOString(), '--to', new Date(paidAt.getTime() + 1_000).toISOString()];
    const first = await admin('provider', 'reconcile', ...window);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toEqual({
      provider: 'apipix',
      from: window[1],
      to: window[3],
      pages: 1,
      checked: 1,
      recorded: 0,
      recovered: 1,
      unmatched: 0,
      missing: 0,
    });
    expect((await invoiceByTxid(runtime, txid))?.status).toBe('PAID');
    const second = await admin('provider', 'reconcile', ...window);
    expect(second.json).toMatchObject({ checked: 1, recorded: 1, recovered: 0 });
    expect((await admin('provider', 'reconcile', '--from', window[3] ?? '', '--to', window[1] ?? '')).code).toBe(2);
    expect((await admin('provider', 'reconcile', '--from', 'yesterday', '--to', window[3] ?? '')).code).toBe(2);
    expect((await admin('provider', 'reconcile', '--from', '2026-01-01T00:00:00Z', '--to', '2026-03-01T00:00:00Z')).code).toBe(2);
    expect((await admin('provider', 'reconcile', '--txid', txid, ...window)).code).toBe(2);
  }, 90_000);

  it('the local stack (simulated provider, no PSP configured) answers 404 to an API Pix callback path', async () => {
    const reply = await call('POST', `/provider/apipix/notifications/${'t'.repeat(32)}/pix`, { body: { pix: [] } });
    expect(reply.status).toBe(404);
  });
});
