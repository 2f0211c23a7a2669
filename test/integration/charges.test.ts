import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keys } from '../../shared/adapters/dynamo/keys';
import { boletoBancarioCodigoBarras, boletoBancarioLinhaDigitavel } from 'boleto-brasileiro-validator';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accountStore, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { cardBody, common, createCharge, createCustomerWithAddress, decodeQrDataUri, tomorrow } from '../support/charges';
import { availableBalance, eventsAbout, eventually, listedItems } from '../support/ledger';
import { ROOT } from '../support/local-stack-process';
import { dueDateFactor } from '../../shared/domain/boleto-barcode';

let auth: Record<string, string>;
let accountId: string;

describe('POST /api/pix/create', () => {
  beforeAll(async () => {
    const keys = await newAccount();
    accountId = keys.account_id;
    auth = bearer(await tokenFor(keys));
  });

  it('creates a Pix charge: total by the spec formula, txid, a dynamic BR Code an independent parser accepts, and its QR code', async () => {
    const reply = await createCharge('pix', auth, common({ email: 'payer@example.com', document: '529.982.247-25', client: 'Payer' }));
    expect(reply.status).toBe(200);
    const invoice = reply.invoice;
    expect(Object.keys(invoice).sort()).toEqual(['copy', 'due_date', 'qrcode', 'reference', 'total', 'txid']);
    expect(invoice.reference).toMatch(/^INV-[A-Z0-9]{6}$/);
    expect(invoice.total).toBe('190.00');
    expect(invoice.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    const copy = String(invoice.copy);
    const parsed = parsePix(copy);
    expect(hasError(parsed)).toBe(false);
    if (hasError(parsed) || !isDynamicPix(parsed)) throw new Error('not a dynamic Pix');
    const base = new URL(stack().baseUrl);
    expect(parsed.url.startsWith(`${base.host}/simulated-psp/`)).toBe(true);
    expect(copy).toContain('br.gov.bcb.pix');
    expect(copy).toMatch(/5204000053039865802BR/);
    expect(copy).toContain('62070503***');
    expect(String(invoice.qrcode)).toMatch(/^data:image\/png;base64,/);
    expect(decodeQrDataUri(String(invoice.qrcode))).toBe(copy);
    // Drawn once (issue 13): the PNG is stored with the invoice, and a read answers that very image.
    const stored = await accountStore().db.send(new GetCommand({ TableName: stack().tableName, Key: keys.invoice(String(invoice.reference)) }));
    const png = (stored.Item?.pix as { qrPng?: Uint8Array } | undefined)?.qrPng;
    expect(png).toBeInstanceOf(Uint8Array);
    expect(`data:image/png;base64,${Buffer.from(png ?? new Uint8Array()).toString('base64')}`).toBe(invoice.qrcode);
    const read = await call('GET', `/api/invoice/ref/${String(invoice.reference)}`, { headers: auth });
    expect((read.json as { invoice: { qrcode: string } }).invoice.qrcode).toBe(invoice.qrcode);
  });

  it('answers 422 for money that is 0, negative, a string, or has more than 2 decimals, and for unreal dates', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: '10.00' }, 'amount'],
      [{ amount: 10.005 }, 'amount'],
      [{ amount: 1_000_000_000 }, 'amount'],
      [{ quantity: 0 }, 'quantity'],
      [{ quantity: 1.5 }, 'quantity'],
      [{ tax: 101 }, 'tax'],
      [{ discount: -1 }, 'discount'],
      [{ due_date: '2026-02-30' }, 'due_date'],
      [{ due_date: '22/11/2026' }, 'due_date'],
      [{ due_date: '2020-01-01' }, 'due_date'],
      [{ invoice_no: 'x'.repeat(101) }, 'invoice_no'],
      [{ document: '123.456.789-00' }, 'document'],
      [{ email: 'nope' }, 'email'],
    ];
    for (const [override, field] of cases) {
      const reply = await createCharge('pix', auth, common(override));
      expect(reply.status, JSON.stringify(override)).toBe(422);
      expect(Object.keys((reply.json as { error: Record<string, unknown> }).error), JSON.stringify(override)).toContain(field);
    }
  });

  it('answers 422 on amount when the total is beyond what Pix carries, never a 500', async () => {
    const reply = await createCharge('pix', auth, common({ amount: 999_999_999, quantity: 100_000, tax: 0, discount: 0 }));
    expect(reply.status).toBe(422);
    expect((reply.json as { error: Record<string, unknown> }).error).toHaveProperty('amount');
  });

  it('answers 400 when the account has not enabled the method', async () => {
    const only = bearer(await tokenFor(await newAccount(['card'])));
    const reply = await createCharge('pix', only, common());
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: expect.stringMatching(/not enabled/) });
    expect((await createCharge('boleto', only, { ...common(), customer: 1 })).status).toBe(400);
  });
});

describe('POST /api/boleto/create', () => {
  let customer: number;
  beforeAll(async () => {
    const keys = await newAccount();
    accountId = keys.account_id;
    auth = bearer(await tokenFor(keys));
    customer = await createCustomerWithAddress(auth);
  });

  it('creates a boleto: a valid 44-digit barcode (amount and due-date factor inside), a valid digitable line, and a printable page', async () => {
    const due = tomorrow();
    const reply = await createCharge('boleto', auth, {
      ...common({ amount: 1234.56, quantity: 1, tax: undefined, discount: 0, due_date: due }),
      customer,
      instructions: 'Não receber após o vencimento',
    });
    expect(reply.status).toBe(200);
    const invoice = reply.invoice;
    expect(invoice).toMatchObject({ total: '1234.56', due_date: due, status: 'PENDING' });
    const barcode = String(invoice.barcode);
    const digitable = String(invoice.digitable);
    expect(barcode).toMatch(/^\d{44}$/);
    expect(digitable).toMatch(/^\d{47}$/);
    expect(boletoBancarioCodigoBarras(barcode)).toBe(true);
    expect(boletoBancarioLinhaDigitavel(digitable, true)).toBe(true);
    expect(barcode.slice(9, 19)).toBe('0000123456');
    const days = Math.round((Date.parse(`${due}T00:00:00Z`) - Date.parse('2025-02-22T00:00:00Z')) / 86_400_000);
    expect(Number(barcode.slice(5, 9))).toBe(1000 + days);
    expect(dueDateFactor(due)).toBe(1000 + days);
    const page = await call('GET', new URL(String(invoice.boleto)).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('1.234,56');
    expect(page.text).toContain('<svg');
    expect(page.text.replace(/\D/g, '')).toContain(digitable);
    // The checkout page's headers (issue 31): no script at all, its one style by hash, no framing, no referrer.
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]{43}='/);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)?.[1] ?? '';
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`);
    const forged = new URL(String(invoice.boleto)).pathname.replace(/\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await call('GET', forged)).status).toBe(404);
  });

  it("answers 422 on customer for another account's customer or one without an address", async () => {
    const otherAuth = bearer(await tokenFor(await newAccount()));
    const othersCustomer = await createCustomerWithAddress(otherAuth);
    const foreign = await createCharge('boleto', auth, { ...common(), customer: othersCustomer });
    expect(foreign.status).toBe(422);
    expect((foreign.json as { error: Record<string, unknown> }).error).toHaveProperty('customer');
    const bare = await call('POST', '/api/customer', {
      headers: auth,
      body: { name: 'Sem Endereço', document: '529.982.247-25', document_type: 'CPF', email: 'sem@example.com' },
    });
    const noAddress = await createCharge('boleto', auth, { ...common(), customer: (bare.json as { customer: { id: number } }).customer.id });
    expect(noAddress.status).toBe(422);
    expect((noAddress.json as { error: Record<string, unknown> }).error).toHaveProperty('customer');
  });

  it('answers 422 on amount beyond what a boleto carries (99,999,999.99)', async () => {
    const reply = await createCharge('boleto', auth, { ...common({ amount: 100_000_000, quantity: 1, tax: 0, discount: 0 }), customer });
    expect(reply.status).toBe(422);
    expect((reply.json as { error: Record<string, unknown> }).error).toHaveProperty('amount');
  });
});

describe('POST /api/creditcard/create', () => {
  beforeAll(async () => {
    const keys = await newAccount();
    accountId = keys.account_id;
    auth = bearer(await tokenFor(keys));
  });

  it('approves a card: PAID at once, the balance credited and invoice.paid in the outbox', async () => {
    const before = await availableBalance(auth);
    const reply = await createCharge('creditcard', auth, cardBody());
    expect(reply.status).toBe(200);
    expect(reply.invoice).toMatchObject({
      total: '190.00',
      status: 'PAID',
      transaction: { amount: '190.00', status: 1, description: 'Camiseta', method: 'creditcard' },
    });
    expect(String((reply.invoice.transaction as { id: string }).id)).not.toBe('');
    expect(Number(await availableBalance(auth))).toBeCloseTo(Number(before) + 190, 2);
    const events = await eventsAbout(accountId, String(reply.invoice.reference));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'invoice.paid',
      api_version: '2026-10-14',
      data: { invoice: { reference: reply.invoice.reference, total: '190.00', status: 'PAID' } },
    });
    expect(events[0]?.id).toMatch(/^evt_[A-Za-z0-9]{24}$/);
  });

  it('answers 400 for a declined card and credits nothing; 502 for a provider failure and creates nothing', async () => {
    const before = await availableBalance(auth);
    const declined = await createCharge('creditcard', auth, cardBody({ creditcard_number: '4000000000000002' }));
    expect(declined.status).toBe(400);
    expect(declined.json).toEqual({ error: expect.any(String), code: 'card_declined' });
    const failed = await createCharge('creditcard', auth, cardBody({ creditcard_number: '4000000000000119' }));
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ error: expect.any(String) });
    expect(await availableBalance(auth)).toBe(before);
    const list = (await call('GET', '/api/invoices?limit=50', { headers: auth })).json as { invoices: { status: string }[] };
    expect(list.invoices.every((i) => i.status === 'PAID')).toBe(true);
  });

  it('answers 422 for an invalid card: Luhn, expiry, brand, CVV, installments', async () => {
    const year = new Date().getUTCFullYear();
    const cases: [Record<string, unknown>, string][] = [
      [{ creditcard_number: '4111111111111112' }, 'creditcard_number'],
      [{ creditcard_number: '41111111111' }, 'creditcard_number'],
      [{ creditcard_year: year - 1 }, 'creditcard_year'],
      [{ creditcard_month: 13 }, 'creditcard_month'],
      [{ creditcard_brand: 'mastercard' }, 'creditcard_brand'],
      [{ creditcard_cvv: '12' }, 'creditcard_cvv'],
      [{ installments: 25 }, 'installments'],
      [{ email: undefined }, 'email'],
    ];
    for (const [override, field] of cases) {
      const reply = await createCharge('creditcard', auth, cardBody(override));
      expect(reply.status, JSON.stringify(override)).toBe(422);
      expect(Object.keys((reply.json as { error: Record<string, unknown> }).error), JSON.stringify(override)).toContain(field);
      expect(reply.text).not.toContain('4111111111111112');
    }
  });

  it('never stores, logs or echoes the card number or CVV (brand and last 4 only)', async () => {
    const logFile = join(ROOT, '.local', `local-stack-${stack().port}.log`);
    const from = readFileSync(logFile, 'utf8').length;
    const number = '5555555555554444';
    const body = cardBody({ creditcard_number: number, creditcard_cvv: '735', creditcard_brand: 'mastercard' });
    const approved = await createCharge('creditcard', auth, body);
    const declined = await createCharge('creditcard', auth, cardBody({ creditcard_number: '4000000000000002', creditcard_cvv: '735' }));
    const invalid = await createCharge(
      'creditcard',
      auth,
      cardBody({ creditcard_number: '5555555555554445', creditcard_cvv: '735', creditcard_brand: 'mastercard' }),
    );
    expect([approved.status, declined.status, invalid.status]).toEqual([200, 400, 422]);
    // The stack's log lines of the three requests (written asynchronously by the stack process).
    const lines = await eventually(
      () => readFileSync(logFile, 'utf8').slice(from),
      (text) => text.split('"route":"CreateCardCharge"').length > 3,
      10_000,
    );
    expect(lines.split('"route":"CreateCardCharge"').length).toBeGreaterThan(3);
    for (const secret of [number, '5555555555554445', '4000000000000002', '"735"', 'creditcard_cvv', 'creditcard_number']) expect(lines).not.toContain(secret);
    // The CVV as a value of its own (not inside a longer number, such as a timestamp in an invoice_no).
    const cvv = /(^|[^0-9])735([^0-9]|$)/;
    for (const reply of [approved, declined, invalid]) {
      expect(reply.text).not.toContain(number);
      expect(reply.text).not.toMatch(cvv);
    }
    const dump = JSON.stringify(await listedItems(keys.invoiceListPartition(accountId)));
    expect(dump).toContain('"last4":"4444"');
    expect(dump).not.toContain(number);
    expect(dump).not.toMatch(cvv);
    const shown = await call('GET', `/api/invoice/ref/${approved.invoice.reference}`, { headers: auth });
    expect((shown.json as { invoice: { card: unknown } }).invoice.card).toEqual({ brand: 'mastercard', last4: '4444', installments: 1 });
  });

  it('replays a declined card for the same Idempotency-Key and does not charge twice when approved', async () => {
    const key = `card-${Date.now()}`;
    const first = await createCharge('creditcard', { ...auth, 'idempotency-key': key }, cardBody({ invoice_no: 'IDEM-1' }));
    const before = await availableBalance(auth);
    const again = await createCharge('creditcard', { ...auth, 'idempotency-key': key }, cardBody({ invoice_no: 'IDEM-1' }));
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.invoice.reference).toBe(first.invoice.reference);
    expect(await availableBalance(auth)).toBe(before);
    const declinedKey = `card-declined-${Date.now()}`;
    const declined = cardBody({ creditcard_number: '4000000000000002', invoice_no: 'IDEM-2' });
    expect((await createCharge('creditcard', { ...auth, 'idempotency-key': declinedKey }, declined)).status).toBe(400);
    const replay = await createCharge('creditcard', { ...auth, 'idempotency-key': declinedKey }, declined);
    expect(replay.status).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });
});
