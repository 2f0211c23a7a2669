import type { InitializeMiddleware } from '@smithy/types';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../shared/http/routes';
import { newNumericId } from '../../shared/platform/ids';
import { invoiceIdForReference, referenceOfInvoiceId } from '../../shared/domain/invoice-ids';
import { invoiceIdDraw } from '../../shared/platform/invoice-references';
import { getRuntime } from '../../shared/wiring/runtime';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common } from '../support/charges';
import { invokeRoute } from '../support/invoke-route';

/**
 * Issue 26: GET /api/invoice/{invoice_id} reads the invoice at once. A new invoice's id carries its
 * reference, so the route reads the invoice item beside the gate and nothing else; an id drawn before
 * (time-ordered, through its INVID# pointer) is still found; an id that names a reference but not that
 * invoice finds nothing.
 */
const SEEN = 'invoice-by-id-seen';
let sent: { command: string; pk: string }[] = [];

beforeAll(() => {
  useLocalStackEnvironment();
  const seen: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => (args) => {
    const input = args.input as { Key?: { PK?: unknown } };
    sent.push({ command: String(context.commandName), pk: typeof input.Key?.PK === 'string' ? input.Key.PK : '' });
    return next(args);
  };
  getRuntime().db.middlewareStack.add(seen, { step: 'initialize', name: SEEN, priority: 'low' });
});

afterAll(() => getRuntime().db.middlewareStack.remove(SEEN));
afterEach(() => vi.restoreAllMocks());

async function merchant() {
  return bearer(await tokenFor(await newAccount()));
}

async function createPix(auth: Record<string, string>, body = common()) {
  const reply = await invokeRoute(routes.createPix, { headers: auth, body });
  expect(reply.status, reply.body).toBe(200);
  // The creation's answer carries the reference; the numeric id shows in the invoice's view.
  const { reference } = (reply.json as { invoice: { reference: string } }).invoice;
  const view = await invokeRoute(routes.getInvoiceByReference, { params: { ref_id: reference }, headers: auth });
  expect(view.status, view.body).toBe(200);
  return view.json as { invoice: { id: number; reference: string } };
}

async function byId(auth: Record<string, string>, invoiceId: number) {
  sent = [];
  const reply = await invokeRoute(routes.getInvoice, { params: { invoice_id: String(invoiceId) }, headers: auth });
  return { reply, sent: [...sent] };
}

describe('GET /api/invoice/{invoice_id} (issue 26)', () => {
  it('reads a new invoice in one read beside the gate: its id carries its reference, no pointer is read', async () => {
    const auth = await merchant();
    const { invoice } = await createPix(auth);
    expect(referenceOfInvoiceId(invoice.id)).toBe(invoice.reference);
    const { reply, sent: calls } = await byId(auth, invoice.id);
    expect(reply.status, reply.body).toBe(200);
    expect(reply.json).toMatchObject({ invoice: { id: invoice.id, reference: invoice.reference } });
    expect(calls.filter((c) => c.command === 'GetItemCommand')).toEqual([{ command: 'GetItemCommand', pk: `INV#${invoice.reference}` }]);
    expect(calls.some((c) => c.pk.startsWith('INVID#'))).toBe(false);
  });

  it('an id naming an existing reference with other low bits finds nothing (404), for the owner too', async () => {
    const auth = await merchant();
    const { invoice } = await createPix(auth);
    const low = ((invoice.id - 10 ** 15) % 2 ** 19) ^ 1;
    const forged = invoiceIdForReference(invoice.reference, low);
    expect(forged).not.toBe(invoice.id);
    const { reply } = await byId(auth, forged);
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain(invoice.reference);
  });

  it('an invoice whose id was drawn time-ordered (before issue 26) is still found, through its pointer', async () => {
    const auth = await merchant();
    const legacyId = newNumericId(new Date());
    vi.spyOn(invoiceIdDraw, 'numericId').mockReturnValueOnce(legacyId);
    const { invoice } = await createPix(auth, common({ invoice_no: 'LEGACY-1' }));
    expect(invoice.id).toBe(legacyId);
    expect(referenceOfInvoiceId(legacyId)).not.toBe(invoice.reference);
    const { reply, sent: calls } = await byId(auth, legacyId);
    expect(reply.status, reply.body).toBe(200);
    expect(reply.json).toMatchObject({ invoice: { id: legacyId, reference: invoice.reference } });
    expect(calls.some((c) => c.pk === `INVID#${legacyId}`)).toBe(true);
    expect((await byId(await merchant(), legacyId)).reply.status).toBe(404);
  });

  it('lists invoices with either kind of id newest first, and a civil-date range finds both', async () => {
    const auth = await merchant();
    const first = (await createPix(auth, common({ invoice_no: 'ORDER-NEW-1' }))).invoice;
    vi.spyOn(invoiceIdDraw, 'numericId').mockReturnValueOnce(newNumericId(new Date()));
    const legacy = (await createPix(auth, common({ invoice_no: 'ORDER-OLD' }))).invoice;
    const last = (await createPix(auth, common({ invoice_no: 'ORDER-NEW-2' }))).invoice;
    const list = async (query: Record<string, string>) => {
      const reply = await invokeRoute(routes.listInvoices, { headers: auth, query });
      expect(reply.status, reply.body).toBe(200);
      return (reply.json as { invoices: { reference: string }[] }).invoices.map((i) => i.reference);
    };
    const newestFirst = [last.reference, legacy.reference, first.reference];
    expect(await list({})).toEqual(newestFirst);
    const today = new Date(Date.now() - 3 * 3600 * 1000).toISOString().slice(0, 10);
    expect(await list({ start_date: today, end_date: today })).toEqual(newestFirst);
  });
});
