import { beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedProvider } from '../../shared/adapters/providers/simulated';
import { routes } from '../../shared/http/routes';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import { getRuntime } from '../../shared/wiring/runtime';
import { bearer, call, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardBody, common, createCustomerWithAddress } from '../support/charges';
import { invokeRoute } from '../support/invoke-route';
import { eventsAbout, storedBalanceCents } from '../support/ledger';
import { notifyHere } from '../support/provider';

/**
 * Issue 46: POST /api/invoice/{invoice_id}/cancel against the local stack, in this process so the
 * simulated provider's state shows what was withdrawn: a PENDING Pix, boleto or BolePix is withdrawn
 * at its rails, then CANCELED with invoice.canceled; the refusals move nothing; a payment that still
 * arrives is credited and flagged paid_after_cancel.
 */

type Merchant = { accountId: string; auth: Record<string, string>; customer: number };
type InvoiceView = { id: number; reference: string; status: string; version: number; canceled_at: string | null; paid_after_cancel: boolean };

let provider: SimulatedProvider;

beforeAll(() => {
  useLocalStackEnvironment();
  provider = paymentProvider(getRuntime().config) as SimulatedProvider;
});

async function merchant(): Promise<Merchant> {
  const issued = await newAccount();
  const auth = bearer(await tokenFor(issued));
  return { accountId: issued.account_id, auth, customer: await createCustomerWithAddress(auth) };
}

async function viewOf(who: Merchant, reference: string): Promise<InvoiceView> {
  const reply = await call('GET', `/api/invoice/ref/${reference}`, { headers: who.auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { invoice: InvoiceView }).invoice;
}

const CREATE = { pix: routes.createPix, boleto: routes.createBoleto, creditcard: routes.createCard } as const;

/** A charge created in this process (so this process's simulated provider holds it, as the cancellation's rails are asked here). */
async function created(who: Merchant, kind: 'pix' | 'boleto' | 'creditcard', body: Record<string, unknown>) {
  const reply = await invokeRoute(CREATE[kind], { headers: who.auth, body });
  expect(reply.status, reply.body).toBe(200);
  const { reference, txid } = (reply.json as { invoice: { reference: string; txid?: string } }).invoice;
  return { reference, txid, id: (await viewOf(who, reference)).id };
}

function cancelInvoice(who: Merchant, invoiceId: number | string, headers: Record<string, string> = {}) {
  return invokeRoute(routes.cancelInvoice, { headers: { ...who.auth, ...headers }, params: { invoice_id: String(invoiceId) } });
}

const reasonOf = (reply: { json: unknown }) => (reply.json as { code?: string }).code;

describe('POST /api/invoice/{invoice_id}/cancel (issue 46)', () => {
  it('a PENDING Pix: its charge withdrawn at the provider, CANCELED with invoice.canceled (version, previous_status); the answer is the invoice view', async () => {
    const who = await merchant();
    const pix = await created(who, 'pix', common());
    expect(provider.removedPix.has(pix.txid ?? '')).toBe(false);
    const reply = await cancelInvoice(who, pix.id);
    expect(reply.status, reply.body).toBe(200);
    const answered = (reply.json as { success: boolean; invoice: InvoiceView }).invoice;
    expect(reply.json).toMatchObject({ success: true });
    expect(answered).toMatchObject({ id: pix.id, reference: pix.reference, status: 'CANCELED', version: 2, canceled_at: expect.any(String) });
    expect(provider.removedPix.has(pix.txid ?? '')).toBe(true);
    // The answer is what the invoice lookup shows.
    expect(await viewOf(who, pix.reference)).toEqual(answered);
    const events = await eventsAbout(who.accountId, pix.reference);
    expect(events.map((event) => event.type)).toEqual(['invoice.canceled']);
    expect(events[0]?.data.invoice).toMatchObject({ reference: pix.reference, status: 'CANCELED', version: 2, previous_status: 'PENDING' });
  });

  it('a PENDING boleto: written off at the provider, then CANCELED', async () => {
    const who = await merchant();
    const plain = await newAccount(['boleto']);
    const boletoOnly = { ...who, auth: bearer(await tokenFor(plain)), accountId: plain.account_id };
    boletoOnly.customer = await createCustomerWithAddress(boletoOnly.auth);
    const boleto = await created(boletoOnly, 'boleto', { ...common(), customer: boletoOnly.customer });
    expect(boleto.txid).toBeUndefined();
    const reply = await cancelInvoice(boletoOnly, boleto.id);
    expect(reply.status, reply.body).toBe(200);
    expect(provider.writtenOff.has(boleto.reference)).toBe(true);
    expect(await viewOf(boletoOnly, boleto.reference)).toMatchObject({ status: 'CANCELED', version: 2 });
  });

  it('a PENDING BolePix: both rails withdrawn (its due-date Pix charge removed, its boleto written off), then CANCELED', async () => {
    const who = await merchant();
    const bolePix = await created(who, 'boleto', { ...common(), customer: who.customer });
    const txid = bolePix.txid ?? '';
    expect(provider.dueCharges.held.get(txid)?.status).toBe('ACTIVE');
    const reply = await cancelInvoice(who, bolePix.id);
    expect(reply.status, reply.body).toBe(200);
    expect(provider.dueCharges.held.get(txid)?.status).toBe('REMOVED');
    expect(provider.writtenOff.has(bolePix.reference)).toBe(true);
    expect(await viewOf(who, bolePix.reference)).toMatchObject({ status: 'CANCELED' });
  });

  it('a retry with the same Idempotency-Key answers the cancellation again; a new key finds it no longer PENDING (400, nothing moved)', async () => {
    const who = await merchant();
    const pix = await created(who, 'pix', common());
    const key = { 'idempotency-key': `cancel-${pix.reference}` };
    const first = await cancelInvoice(who, pix.id, key);
    expect(first.status, first.body).toBe(200);
    const again = await cancelInvoice(who, pix.id, key);
    expect(again.status, again.body).toBe(200);
    expect(again.json).toEqual(first.json);
    const other = await cancelInvoice(who, pix.id, { 'idempotency-key': `cancel-other-${pix.reference}` });
    expect(other.status, other.body).toBe(400);
    expect(reasonOf(other)).toBe('invoice_not_pending');
    expect((await eventsAbout(who.accountId, pix.reference)).map((event) => event.type)).toEqual(['invoice.canceled']);
  });

  it('concurrent cancellations without a key: exactly one 200 and one invoice.canceled; the others 400 invoice_not_pending, never a 500', async () => {
    const who = await merchant();
    const pix = await created(who, 'pix', common());
    const replies = await Promise.all(Array.from({ length: 6 }, () => cancelInvoice(who, pix.id)));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
    const refused = replies.filter((reply) => reply.status !== 200);
    expect(refused.map((reply) => [reply.status, reasonOf(reply)])).toEqual(refused.map(() => [400, 'invoice_not_pending']));
    expect((await eventsAbout(who.accountId, pix.reference)).map((event) => event.type)).toEqual(['invoice.canceled']);
    expect(await viewOf(who, pix.reference)).toMatchObject({ status: 'CANCELED', version: 2 });
  });

  it('a paid invoice: 400 invoice_not_pending (use a refund), nothing withdrawn or moved', async () => {
    const who = await merchant();
    const pix = await created(who, 'pix', common({ amount: 40, quantity: 1, tax: 0, discount: 0 }));
    expect((await notifyHere('pix-paid', { txid: pix.txid })).status).toBe(200);
    const reply = await cancelInvoice(who, pix.id);
    expect(reply.status, reply.body).toBe(400);
    expect(reply.json).toMatchObject({ error: expect.stringContaining('refund'), code: 'invoice_not_pending' });
    expect(provider.removedPix.has(pix.txid ?? '')).toBe(false);
    expect(await viewOf(who, pix.reference)).toMatchObject({ status: 'PAID', version: 2 });
    expect(await storedBalanceCents(who.accountId)).toBe(4_000);
  });

  it('a card charge: 400 method_not_cancelable, nothing moved', async () => {
    const who = await merchant();
    const card = await created(who, 'creditcard', cardBody());
    const reply = await cancelInvoice(who, card.id);
    expect(reply.status, reply.body).toBe(400);
    expect(reasonOf(reply)).toBe('method_not_cancelable');
    expect(await viewOf(who, card.reference)).toMatchObject({ status: 'PAID' });
  });

  it("another account's invoice, or an unknown id: 404, nothing withdrawn (through the local stack's gateway too)", async () => {
    const who = await merchant();
    const stranger = await merchant();
    const pix = await created(who, 'pix', common());
    const reply = await cancelInvoice(stranger, pix.id);
    expect(reply.status, reply.body).toBe(404);
    const viaStack = await call('POST', `/api/invoice/${pix.id}/cancel`, { headers: stranger.auth });
    expect(viaStack.status, viaStack.text).toBe(404);
    expect((await call('POST', `/api/invoice/${pix.id + 1_000_000}/cancel`, { headers: who.auth })).status).toBe(404);
    expect((await call('POST', '/api/invoice/abc/cancel', { headers: who.auth })).status).toBe(400);
    expect(provider.removedPix.has(pix.txid ?? '')).toBe(false);
    expect(await viewOf(who, pix.reference)).toMatchObject({ status: 'PENDING', version: 1 });
  });

  it("through the local stack's gateway (its own process and provider): the route answers 200 and the invoice is CANCELED", async () => {
    const who = await merchant();
    const charged = await call('POST', '/api/pix/create', { headers: who.auth, body: common() });
    expect(charged.status, charged.text).toBe(200);
    const pix = await viewOf(who, (charged.json as { invoice: { reference: string } }).invoice.reference);
    const reply = await call('POST', `/api/invoice/${pix.id}/cancel`, { headers: who.auth });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toMatchObject({ success: true, invoice: { reference: pix.reference, status: 'CANCELED' } });
  });

  it('a payment that still arrives after the cancellation is credited once and flagged paid_after_cancel', async () => {
    const who = await merchant();
    const pix = await created(who, 'pix', common({ amount: 40, quantity: 1, tax: 0, discount: 0 }));
    expect((await cancelInvoice(who, pix.id)).status).toBe(200);
    const paid = await notifyHere('pix-paid', { txid: pix.txid });
    expect(paid.json).toEqual({ received: true, applied: true });
    expect(await viewOf(who, pix.reference)).toMatchObject({ status: 'PAID', paid_after_cancel: true, canceled_at: expect.any(String) });
    expect(await storedBalanceCents(who.accountId)).toBe(4_000);
  });
});
