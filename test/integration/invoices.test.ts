import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, newAccount, tokenFor } from '../support/api';
import { cardBody, common, createCharge, createCustomerWithAddress, decodeQrDataUri, type InvoiceReply } from '../support/charges';

type Invoice = Record<string, unknown> & { id: number; reference: string; invoice_no: string; status: string; method: string };

let auth: Record<string, string>;
let otherAuth: Record<string, string>;
let pix: InvoiceReply;
let boleto: InvoiceReply;
let card: InvoiceReply;
let ids: Record<string, number>;

async function get(path: string, headers = auth) {
  return call('GET', path, { headers });
}

describe('invoice queries', () => {
  beforeAll(async () => {
    auth = bearer(await tokenFor(await newAccount()));
    otherAuth = bearer(await tokenFor(await newAccount()));
    const customer = await createCustomerWithAddress(auth);
    pix = await createCharge(
      'pix',
      auth,
      common({ invoice_no: 'ORDER-PIX-001', email: 'Ana.Pix@Example.com', client: 'Ana', document: '52998224725', notes: 'gift' }),
    );
    boleto = await createCharge('boleto', auth, { ...common({ invoice_no: 'ORDER-BOL-002' }), customer });
    card = await createCharge('creditcard', auth, cardBody({ invoice_no: 'order-card-003', email: 'card@example.com' }));
    const list = (await get('/api/invoices')).json as { invoices: Invoice[] };
    ids = Object.fromEntries(list.invoices.map((i) => [i.reference, i.id]));
  });

  it("lists only the caller's invoices, newest first, with the full invoice object", async () => {
    const reply = await get('/api/invoices');
    expect(reply.status).toBe(200);
    const body = reply.json as { invoices: Invoice[]; pagination: unknown };
    expect(body.pagination).toEqual({ page: 1, limit: 10 });
    expect(body.invoices.map((i) => i.reference)).toEqual([card, boleto, pix].map((c) => c.invoice.reference));
    const first = body.invoices[2];
    expect(first).toMatchObject({
      reference: pix.invoice.reference,
      invoice_no: 'ORDER-PIX-001',
      item_name: 'Camiseta',
      quantity: 2,
      amount: '100.00',
      discount: 10,
      tax: 5,
      total: '190.00',
      status: 'PENDING',
      method: 'pix',
      email: 'Ana.Pix@Example.com',
      client: 'Ana',
      document: '52998224725',
      notes: 'gift',
      paid_at: null,
      txid: pix.invoice.txid,
      copy: pix.invoice.copy,
    });
    expect(Number.isSafeInteger(first?.id)).toBe(true);
    expect(body.invoices[1]).toMatchObject({
      method: 'boleto',
      barcode: boleto.invoice.barcode,
      digitable: boleto.invoice.digitable,
      boleto: boleto.invoice.boleto,
    });
    expect(body.invoices[0]).toMatchObject({
      method: 'creditcard',
      status: 'PAID',
      transaction: card.invoice.transaction,
      card: { brand: 'visa', last4: '1111' },
    });
    expect(((await get('/api/invoices', otherAuth)).json as { invoices: unknown[] }).invoices).toEqual([]);
  });

  it('pages, and filters invoice_no and email partially ignoring case', async () => {
    const refs = async (query: string) => ((await get(`/api/invoices?${query}`)).json as { invoices: Invoice[] }).invoices.map((i) => i.reference);
    expect(await refs('limit=1&page=2')).toEqual([boleto.invoice.reference]);
    expect(await refs('invoice_no=order-')).toEqual([card, boleto, pix].map((c) => c.invoice.reference));
    expect(await refs('invoice_no=CARD')).toEqual([card.invoice.reference]);
    expect(await refs('email=ana.pix@')).toEqual([pix.invoice.reference]);
    const today = new Date(Date.now() - 3 * 3600 * 1000).toISOString().slice(0, 10);
    expect(await refs(`start_date=${today}&end_date=${today}`)).toHaveLength(3);
    expect(await refs('start_date=2026-01-01&end_date=2026-01-02')).toEqual([]);
  });

  it('answers 422 for a bad query, including start_date without end_date', async () => {
    for (const query of [
      'limit=51',
      'page=0',
      'start_date=2026-01-01',
      'end_date=2026-01-01',
      'start_date=2026-02-30&end_date=2026-03-01',
      'start_date=2026-03-02&end_date=2026-03-01',
    ]) {
      const reply = await get(`/api/invoices?${query}`);
      expect(reply.status, query).toBe(422);
      expect(typeof (reply.json as { error: unknown }).error).toBe('object');
    }
  });

  it('finds one invoice by numeric id and by reference; non-numeric id → 400; another account → 404', async () => {
    const pixId = ids[String(pix.invoice.reference)];
    const byId = await get(`/api/invoice/${pixId}`);
    expect(byId.status).toBe(200);
    expect((byId.json as { invoice: Invoice }).invoice.reference).toBe(pix.invoice.reference);
    expect((await get(`/api/invoice/ref/${pix.invoice.reference}`)).json).toEqual(byId.json);
    expect((await get('/api/invoice/abc')).status).toBe(400);
    expect((await get('/api/invoice/999999')).status).toBe(404);
    expect((await get(`/api/invoice/${pixId}`, otherAuth)).status).toBe(404);
    expect((await get(`/api/invoice/ref/${pix.invoice.reference}`, otherAuth)).status).toBe(404);
    expect((await get('/api/invoice/ref/INV-ZZZZZZ')).status).toBe(404);
  });

  it('finds Pix invoices by reference and by txid; not a boleto, not another account', async () => {
    const byRef = await get(`/api/pix/invoice/${pix.invoice.reference}`);
    expect(byRef.status).toBe(200);
    expect((byRef.json as { invoice: Invoice }).invoice).toMatchObject({ reference: pix.invoice.reference, txid: pix.invoice.txid, method: 'pix' });
    // The QR code is drawn again from `copy` (not stored): it still decodes to exactly the BR Code.
    expect(decodeQrDataUri(String((byRef.json as { invoice: Invoice }).invoice.qrcode))).toBe(pix.invoice.copy);
    const byTxid = await get(`/api/pix/txid/${pix.invoice.txid}`);
    expect(byTxid.json).toEqual(byRef.json);
    expect((await get(`/api/pix/invoice/${boleto.invoice.reference}`)).status).toBe(404);
    expect((await get(`/api/pix/txid/${pix.invoice.txid}`, otherAuth)).status).toBe(404);
    expect((await get(`/api/pix/invoice/${pix.invoice.reference}`, otherAuth)).status).toBe(404);
    expect((await get('/api/pix/txid/short')).status).toBe(404);
    // A txid that names a real reference but is not that invoice's txid finds nothing.
    const forged = `${String(pix.invoice.reference).replace('-', '')}${'Z'.repeat(23)}`;
    expect((await get(`/api/pix/txid/${forged}`)).status).toBe(404);
  });
});
