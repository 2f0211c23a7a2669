import * as z from 'zod';
import { chargeTotal } from './charge';
export { listInvoicesQuerySchema } from './invoice-query';
import { moneyString } from './balance';
import { invoiceTextAnswerShape } from '../invoice-texts';
import { CHARGE_METHODS, methodViewShape } from '../payment-methods';

export const invoiceSchema = z
  .object({
    id: z.number().int(),
    reference: z.string(),
    invoice_no: z.string(),
    item_name: z.string(),
    quantity: z.number().int(),
    amount: moneyString,
    discount: z.number(),
    tax: z.number(),
    total: chargeTotal,
    status: z.enum(['PENDING', 'PAID', 'CANCELED', 'REFUNDED']),
    due_date: z.string(),
    method: z.enum(CHARGE_METHODS),
    // The merchant's own texts (notes…), each from its row: shared/domain/invoice-texts.ts.
    ...invoiceTextAnswerShape(),
    email: z.string().nullable(),
    client: z.string().nullable(),
    document: z.string().nullable(),
    created_at: z.string(),
    paid_at: z.string().nullable(),
    canceled_at: z.string().nullable(),
    refunded_at: z.string().nullable(),
    paid_after_cancel: z
      .boolean()
      .describe('True when the payment was confirmed after the invoice was canceled: the money is credited and the invoice PAID; refund it if the sale is off'),
    paid_amount: moneyString
      .nullable()
      .describe('What was credited as the payment: the total, or with a late payment the amount due that day (fine and interest included); null until paid'),
    paid_rail: z.enum(CHARGE_METHODS).nullable().describe('The rail that paid: a BolePix is paid by pix or boleto; null until paid'),
    version: z.number().int().min(1).describe("1 at creation, +1 at each state change; the invoice's events carry the version they made"),
    late_payment: z
      .object({ fine: z.number(), interest: z.number(), days_after_due: z.number().int() })
      .optional()
      .describe(
        "A boleto's late-payment rules, shared by its Pix half: fine (percent, once), interest (percent a month, pro rata per calendar day), days after the due date payment is accepted",
      ),
    refund_due: z
      .object({ rail: z.enum(['pix', 'boleto']), amount: moneyString, paid_at: z.string() })
      .optional()
      .describe('A BolePix paid again on its other rail after it was paid: that money is credited apart and is due back to the payer'),
    // Each method's own fields, from its row: present on that method's invoices only (a BolePix shows both the boleto's and the Pix half's).
    ...methodViewShape(),
  })
  .meta({ id: 'Invoice', description: 'A charge. Pix, boleto and card charges add their own fields.' });

export const invoiceResponseSchema = z.object({ invoice: invoiceSchema }).meta({ id: 'InvoiceResponse' });

/** POST /api/invoice/{invoice_id}/cancel's answer (issue 46): the invoice, CANCELED, as GET /api/invoice/{invoice_id} shows it. */
export const invoiceCanceledSchema = z.object({ success: z.literal(true), invoice: invoiceSchema }).meta({ id: 'InvoiceCanceled' });

export const invoiceListSchema = z
  .object({ invoices: z.array(invoiceSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int() }) })
  .meta({ id: 'InvoiceList' });

export const invoiceIdParamsSchema = z.object({
  // An integer, as the spec says (read from the path as its digits: 16 at most, beyond a double's exact range).
  invoice_id: z
    .string()
    .regex(/^\d{1,16}$/, 'Must be a numeric id')
    .meta({ type: 'integer', format: 'int64', minimum: 1, description: "The numeric invoice id (the invoice's `id`)" }),
});
export const invoiceRefParamsSchema = z.object({ ref_id: z.string().max(20) });
export const pixRefParamsSchema = z.object({ ref: z.string().max(20) });
export const pixTxidParamsSchema = z.object({ txid: z.string().max(35) });
