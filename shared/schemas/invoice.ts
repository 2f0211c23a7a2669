import * as z from 'zod';
import { chargeTotal } from './charge';
export { listInvoicesQuerySchema } from './invoice-query';
import { moneyString } from './balance';
import { CHARGE_METHODS, methodViewShape } from '../domain/payment-methods';

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
    notes: z.string().nullable(),
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
    // Each method's own fields, from its row: present on that method's invoices only.
    ...methodViewShape(),
  })
  .meta({ id: 'Invoice', description: 'A charge. Pix, boleto and card charges add their own fields.' });

export const invoiceResponseSchema = z.object({ invoice: invoiceSchema }).meta({ id: 'InvoiceResponse' });


export const invoiceListSchema = z
  .object({ invoices: z.array(invoiceSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int() }) })
  .meta({ id: 'InvoiceList' });

export const invoiceIdParamsSchema = z.object({ invoice_id: z.string().regex(/^\d{1,16}$/, 'Must be a numeric id') });
export const invoiceRefParamsSchema = z.object({ ref_id: z.string().max(20) });
export const pixRefParamsSchema = z.object({ ref: z.string().max(20) });
export const pixTxidParamsSchema = z.object({ txid: z.string().max(35) });
