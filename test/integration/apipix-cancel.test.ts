import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedProvider } from '../../shared/adapters/providers/simulated';
import { routes } from '../../shared/http/routes';
import { paymentProvider, pixProvider } from '../../shared/wiring/provider-registry';
import { getRuntime } from '../../shared/wiring/runtime';
import type { PixProvider } from '../../shared/ports/payment-provider';
import { type ApiPixEnvironment, apiPixMerchant, startApiPixEnvironment } from '../support/apipix-env';
import { common } from '../support/charges';
import { invokeRoute } from '../support/invoke-route';
import { eventsAbout } from '../support/ledger';

/**
 * Issue 46 with an API Pix PSP (the standard-shaped test PSP, in this process): a merchant's
 * cancellation withdraws the charge with PATCH /cob/{txid} (a BolePix's half with PATCH /cobv/{txid}),
 * each body valid against bacen/pix-api's own schema (CobRevisada, CobVRevisada); a withdrawal repeated
 * finds it done; a charge the PSP holds paid is not canceled (400, nothing moved).
 */

let environment: ApiPixEnvironment;
let auth: Record<string, string>;
let accountId: string;
let customer: number;

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'apipix', name), 'utf8')) as { request: { patch: object } };
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const cobPatch = ajv.compile(fixture('cob-schemas.json').request.patch);
const cobvPatch = ajv.compile(fixture('cobv-schemas.json').request.patch);

type Created = { reference: string; txid: string };

async function charge(kind: 'pix' | 'boleto'): Promise<Created & { id: number }> {
  const route = kind === 'pix' ? routes.createPix : routes.createBoleto;
  const reply = await invokeRoute(route, { headers: auth, body: kind === 'pix' ? common() : { ...common(), customer } });
  expect(reply.status, reply.body).toBe(200);
  const { reference, txid } = (reply.json as { invoice: Created }).invoice;
  const view = await invokeRoute(routes.getInvoiceByReference, { headers: auth, params: { ref_id: reference } });
  return { reference, txid, id: (view.json as { invoice: { id: number } }).invoice.id };
}

const cancel = (id: number) => invokeRoute(routes.cancelInvoice, { headers: auth, params: { invoice_id: String(id) } });
const patchesOf = (path: string) => environment.psp.requestBodies.filter((request) => request.method === 'PATCH' && request.path === path);

beforeAll(async () => {
  environment = await startApiPixEnvironment();
  ({ accountId, auth, customer } = await apiPixMerchant(environment));
}, 60_000);

afterAll(async () => {
  await environment?.stop();
});

describe('cancellation at an API Pix PSP (issue 46)', () => {
  it("a Pix charge: PATCH /cob/{txid} with status REMOVIDA_PELO_USUARIO_RECEBEDOR, valid against the standard's CobRevisada; then CANCELED", async () => {
    const pix = await charge('pix');
    const reply = await cancel(pix.id);
    expect(reply.status, reply.body).toBe(200);
    expect(reply.json).toMatchObject({ invoice: { reference: pix.reference, status: 'CANCELED' } });
    const patches = patchesOf(`/v2/cob/${pix.txid}`);
    expect(patches.map((patch) => patch.body)).toEqual([{ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }]);
    expect(cobPatch(patches[0]?.body), JSON.stringify(cobPatch.errors)).toBe(true);
    expect(environment.psp.cobs.get(pix.txid)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect((await eventsAbout(accountId, pix.reference)).map((event) => event.type)).toEqual(['invoice.canceled']);
  });

  it('the schema check is live: a body the standard refuses fails it', () => {
    expect(cobPatch({ status: 'CONCLUIDA' })).toBe(false);
    expect(cobvPatch({ status: 'REMOVIDA_PELO_PSP' })).toBe(false);
  });

  it('a withdrawal repeated (a retry after a lost answer) finds the charge withdrawn: removed again, harmlessly', async () => {
    const pix = await charge('pix');
    const provider = pixProvider(getRuntime().config) as PixProvider & Required<Pick<PixProvider, 'removePixCharge'>>;
    expect(await provider.removePixCharge(pix.txid)).toBe('removed');
    // The PSP refuses a second PATCH (no longer ATIVA): the adapter reads the cob back and finds it removed.
    expect(await provider.removePixCharge(pix.txid)).toBe('removed');
    expect(environment.psp.requests.filter((request) => request.path === `/v2/cob/${pix.txid}`).map((r) => `${r.method} ${r.status}`)).toEqual([
      'PUT 201',
      'PATCH 200',
      'PATCH 400',
      'GET 200',
    ]);
    const reply = await cancel(pix.id);
    expect(reply.status, reply.body).toBe(200);
    expect(reply.json).toMatchObject({ invoice: { status: 'CANCELED' } });
  });

  it('a charge the PSP holds paid (its callback not yet here): 400 paid_at_rail, nothing moved; the payment is then recorded', async () => {
    const pix = await charge('pix');
    const payment = environment.psp.pay(pix.txid);
    const reply = await cancel(pix.id);
    expect(reply.status, reply.body).toBe(400);
    expect(reply.json).toMatchObject({ code: 'paid_at_rail' });
    const view = await invokeRoute(routes.getInvoiceByReference, { headers: auth, params: { ref_id: pix.reference } });
    expect(view.json).toMatchObject({ invoice: { status: 'PENDING', version: 1 } });
    expect(await eventsAbout(accountId, pix.reference)).toEqual([]);
    // The callback arrives: the payment is read back and credited as usual.
    expect((await environment.psp.notify([payment])).status).toBe(200);
    const paid = await invokeRoute(routes.getInvoiceByReference, { headers: auth, params: { ref_id: pix.reference } });
    expect(paid.json).toMatchObject({ invoice: { status: 'PAID' } });
  });

  it("a BolePix: its half withdrawn with PATCH /cobv/{txid} (valid against the standard's CobVRevisada), its boleto written off, then CANCELED", async () => {
    const bolePix = await charge('boleto');
    const reply = await cancel(bolePix.id);
    expect(reply.status, reply.body).toBe(200);
    const patches = patchesOf(`/v2/cobv/${bolePix.txid}`);
    expect(patches.map((patch) => patch.body)).toEqual([{ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }]);
    expect(cobvPatch(patches[0]?.body), JSON.stringify(cobvPatch.errors)).toBe(true);
    expect(environment.psp.cobvs.get(bolePix.txid)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect((paymentProvider(getRuntime().config) as SimulatedProvider).writtenOff.has(bolePix.reference)).toBe(true);
    expect(reply.json).toMatchObject({ invoice: { status: 'CANCELED' } });
  });
});
