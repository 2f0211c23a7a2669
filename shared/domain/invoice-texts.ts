import * as z from 'zod';
import { multiLineText } from './schemas/text';

/**
 * The merchant's own texts on an invoice (issue 45's field recipe): each is given on the charge request
 * under its API name, stored on the invoice as given, read back, and shown on the invoice object (null
 * when absent). A new one is one row here (its record name, API name and request schema); the request
 * schemas, the record's type, the item mapper, the invoice object, its schema and the OpenAPI document
 * follow (test/shared/domain/invoice-texts.test.ts and the item round trip check every row).
 */
type TextRow = { api: string; request: z.ZodString; description?: string };

export const INVOICE_TEXTS = {
  notes: { api: 'notes', request: multiLineText(500) },
} as const satisfies Record<string, TextRow>;

type Texts = typeof INVOICE_TEXTS;
export type InvoiceTextName = keyof Texts;
type ApiName<K extends InvoiceTextName> = Texts[K]['api'];

/** The texts on the invoice record, by record name. */
export type InvoiceTexts = { [K in InvoiceTextName]?: string };
/** The texts of a charge request, by API name. */
export type InvoiceTextsBody = { [K in InvoiceTextName as ApiName<K>]?: string };
/** The texts on the invoice object, by API name: null when absent. */
export type InvoiceTextsView = { [K in InvoiceTextName as ApiName<K>]: string | null };

/**
 * What the house derives from a table of texts. The module's functions below are this over
 * INVOICE_TEXTS; the fake-field test (test/shared/domain/invoice-texts.test.ts) builds it over the real
 * rows plus a fake one, so a text restated by hand anywhere fails it.
 */
export function invoiceTextsFrom(rows: Readonly<Record<string, TextRow>>) {
  const names = Object.keys(rows);
  const entries = <T>(value: (name: string, row: TextRow) => T): Record<string, T> =>
    Object.fromEntries(
      names.flatMap((name) => {
        const row = rows[name];
        return row === undefined ? [] : [[row.api, value(name, row)]];
      }),
    );
  return {
    names,
    requestShape: () => entries((_name, row) => row.request.optional()),
    answerShape: () =>
      entries((_name, row) => {
        const answer = z.string().nullable();
        return row.description === undefined ? answer : answer.describe(row.description);
      }),
    ofBody: (body: Record<string, unknown>): Record<string, string> =>
      Object.fromEntries(
        names.flatMap((name) => {
          const value = body[rows[name]?.api ?? name];
          return typeof value === 'string' ? [[name, value]] : [];
        }),
      ),
    ofItem: (item: Record<string, unknown>): Record<string, string> =>
      Object.fromEntries(names.flatMap((name) => (typeof item[name] === 'string' ? [[name, item[name]]] : []))),
    view: (invoice: Record<string, unknown>): Record<string, string | null> =>
      entries((name) => {
        const value = invoice[name];
        return typeof value === 'string' ? value : null;
      }),
  };
}

const TEXTS = invoiceTextsFrom(INVOICE_TEXTS);

export const INVOICE_TEXT_NAMES = TEXTS.names as InvoiceTextName[];

type RequestShape = { [K in InvoiceTextName as ApiName<K>]: z.ZodOptional<Texts[K]['request']> };
type AnswerShape = { [K in InvoiceTextName as ApiName<K>]: z.ZodNullable<z.ZodString> };

/** Their fields on the charge requests: optional, each with its own schema. */
export function invoiceTextRequestShape(): RequestShape {
  return TEXTS.requestShape() as RequestShape;
}

/** Their fields on the invoice object's schema: a string, or null when the request gave none. */
export function invoiceTextAnswerShape(): AnswerShape {
  return TEXTS.answerShape() as AnswerShape;
}

/** A request's texts as the record holds them (those it gave). */
export function invoiceTextsOfBody(body: InvoiceTextsBody): InvoiceTexts {
  return TEXTS.ofBody(body);
}

/** A stored item's texts (strings only; anything else is absent). */
export function invoiceTextsOfItem(item: Record<string, unknown>): InvoiceTexts {
  return TEXTS.ofItem(item);
}

/** The invoice object's texts: each under its API name, null when absent. */
export function invoiceTextsView(invoice: InvoiceTexts): InvoiceTextsView {
  return TEXTS.view(invoice) as InvoiceTextsView;
}
