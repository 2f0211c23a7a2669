import { describe, expect, it, vi } from 'vitest';
import { INVOICE_TEXT_NAMES, INVOICE_TEXTS, invoiceTextsFrom } from '../../../shared/domain/invoice-texts';
import { commonChargeFields } from '../../../shared/domain/schemas/charge';
import { invoiceSchema } from '../../../shared/domain/schemas/invoice';
import { baseInvoice, type ChargeBody } from '../../../shared/app/charges/charge-request';
import { invoiceItem, invoiceOf } from '../../../shared/adapters/dynamo/invoice-item';
import { invoiceView } from '../../../shared/http/views/invoice-view';
import { buildOpenApiDocument } from '../../../shared/http/openapi';
import { routeList } from '../../../shared/http/routes';
import type { NewInvoice } from '../../../shared/domain/invoice';
import type { Caller } from '../../../shared/domain/account';
import { z } from 'zod';

/**
 * A field added to the invoice through the table of the merchant's texts (issue 45's recipe "Adding a
 * field to an invoice"): the real rows plus a fake `externalId` (`external_id` on the wire), and every
 * module sees what the table derives (the module mocked with its own derivation over the rows). The
 * request schemas take it, the invoice record keeps it, the item mapper reads it back, the invoice object
 * and its schema show it, the OpenAPI document lists it: a text restated by hand anywhere fails here.
 */
vi.mock('../../../shared/domain/invoice-texts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../shared/domain/invoice-texts')>();
  const { singleLineText } = await import('../../../shared/domain/schemas/text');
  const rows = { ...real.INVOICE_TEXTS, externalId: { api: 'external_id', request: singleLineText(64), description: "The merchant's own id" } };
  const texts = real.invoiceTextsFrom(rows);
  return {
    ...real,
    INVOICE_TEXTS: rows,
    INVOICE_TEXT_NAMES: texts.names,
    invoiceTextRequestShape: texts.requestShape,
    invoiceTextAnswerShape: texts.answerShape,
    invoiceTextsOfBody: texts.ofBody,
    invoiceTextsOfItem: texts.ofItem,
    invoiceTextsView: texts.view,
  };
});

const caller: Caller = { accountId: 'acct_texts01', keyVersion: 1, account: { name: 'Loja', methods: ['pix'] } } as Caller;
const body = {
  amount: 1_000,
  quantity: 1,
  tax: 0,
  discount: 0,
  invoice_no: 'NF-1',
  item_name: 'Caneca',
  due_date: '2026-12-01',
  notes: 'Entregar à tarde',
  external_id: 'pedido-77',
} as unknown as ChargeBody;

function newInvoice(): NewInvoice {
  const base = baseInvoice(caller, body, { invoiceId: 123_456, reference: 'INV-TXT001' }, 1_000, new Date('2026-11-29T12:00:00Z'));
  return { ...base, method: 'pix', status: 'PENDING', payer: {}, provider: 'simulated' } as NewInvoice;
}

describe('a text added to the invoice through its table (a fake external_id)', () => {
  it('is a row of the table the house reads', () => {
    expect(INVOICE_TEXT_NAMES).toEqual([...Object.keys(INVOICE_TEXTS)]);
    expect(INVOICE_TEXT_NAMES).toContain('externalId');
  });

  it('is a field of every charge request, checked by its own schema', () => {
    const schema = z.object(commonChargeFields);
    const valid = { amount: 10, quantity: 1, tax: 0, discount: 0, invoice_no: 'NF-1', item_name: 'Caneca', due_date: '2026-12-01' };
    expect(schema.parse({ ...valid, external_id: 'pedido-77' })).toMatchObject({ external_id: 'pedido-77' });
    expect(schema.safeParse({ ...valid, external_id: 'x'.repeat(65) }).success).toBe(false);
    expect(schema.parse(valid)).not.toHaveProperty('external_id');
  });

  it('is kept on the new invoice, written, read back and shown (null when absent), as the schema says', () => {
    const invoice = newInvoice();
    expect(invoice).toMatchObject({ notes: 'Entregar à tarde', externalId: 'pedido-77' });
    const read = invoiceOf(invoiceItem(invoice, Buffer.alloc(32, 7)));
    expect(read).toMatchObject({ notes: 'Entregar à tarde', externalId: 'pedido-77' });
    const view = invoiceView(read, Buffer.alloc(32, 1), 'https://pay.example');
    expect(view).toMatchObject({ notes: 'Entregar à tarde', external_id: 'pedido-77' });
    expect(invoiceSchema.shape).toHaveProperty('external_id');
    const { externalId: _gone, notes: _none, ...without } = read as typeof read & { externalId?: string };
    expect(invoiceView(without, Buffer.alloc(32, 1), 'https://pay.example')).toMatchObject({ notes: null, external_id: null });
    expect(invoiceSchema.partial().parse({ external_id: null, notes: null })).toEqual({ external_id: null, notes: null });
  });

  it('is in the OpenAPI document: on the charge requests, on the invoice object and in its examples', () => {
    const document = JSON.stringify(buildOpenApiDocument(routeList));
    expect(document).toContain('"external_id"');
    expect(document).toContain("The merchant's own id");
    // The invoice examples show it too (an example the schema refuses fails the OpenAPI tests).
    expect(document).toContain('"external_id":null');
  });
});

describe('the real table', () => {
  it('derives the same shapes from its rows as the module answers', () => {
    const derived = invoiceTextsFrom({ notes: { api: 'notes', request: z.string().max(3) } });
    expect(Object.keys(derived.requestShape())).toEqual(['notes']);
    expect(derived.ofBody({ notes: 'abc', other: 'x' })).toEqual({ notes: 'abc' });
    expect(derived.ofItem({ notes: 5 })).toEqual({});
    expect(derived.view({})).toEqual({ notes: null });
  });
});
