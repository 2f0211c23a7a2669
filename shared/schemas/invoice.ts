import * as z from 'zod';
import { multiLineText, singleLineText } from './text';
import { calendarDate, chargeTotal, commonChargeFields, payerDocument } from './charge';
import { moneyString } from './balance';
import { CHARGE_METHODS } from '../domain/payment-methods';

const payerEmail = z.email().max(255);

export const pixCreateBodySchema = z
  .object({ ...commonChargeFields, email: payerEmail.optional(), document: payerDocument.optional(), client: singleLineText(255).min(1).optional() })
  .meta({
    id: 'CreatePixCharge',
    description: 'Common charge fields; the payer email, document (CPF or CNPJ) and name (client) are optional and validated when given.',
  });

export const boletoCreateBodySchema = z
  .object({
    ...commonChargeFields,
    tax: commonChargeFields.tax.optional().default(0),
    customer: z.number().int().positive().describe('Id of one of your customers, with a full address'),
    instructions: multiLineText(255).optional(),
  })
  .meta({ id: 'CreateBoletoCharge', description: 'Common charge fields (tax optional, default 0) and the customer paying it.' });

export const cardCreateBodySchema = z
  .object({
    ...commonChargeFields,
    email: payerEmail,
    installments: z.number().int().min(1).max(24),
    creditcard_holder: singleLineText(100).min(1),
    creditcard_number: z.string().regex(/^\d{12,19}$/, 'Must be 12 to 19 digits'),
    creditcard_cvv: z.string().regex(/^\d{3,4}$/, 'Must be 3 or 4 digits'),
    creditcard_month: z.number().int().min(1).max(12),
    creditcard_year: z.number().int().min(1000).max(9999),
    creditcard_brand: singleLineText(30).min(1),
  })
  .meta({
    id: 'CreateCardCharge',
    description: 'Authorized at once. The card number and CVV are never stored, logged or echoed; only the brand and last 4 digits are kept.',
  });

export const pixCreatedSchema = z
  .object({
    invoice: z.object({
      reference: z.string(),
      total: chargeTotal,
      txid: z.string(),
      due_date: z.string(),
      copy: z.string().describe('Pix "copia e cola" BR Code'),
      qrcode: z.string().describe('PNG data URI of the QR code of `copy`'),
    }),
  })
  .meta({ id: 'PixCreated' });

export const boletoCreatedSchema = z
  .object({
    invoice: z.object({
      reference: z.string(),
      total: chargeTotal,
      due_date: z.string(),
      status: z.string(),
      boleto: z.string().describe('URL of the printable boleto'),
      barcode: z.string().describe('44 digits'),
      digitable: z.string().describe('47 digits'),
    }),
  })
  .meta({ id: 'BoletoCreated' });

export const cardTransactionSchema = z
  .object({ id: z.string(), amount: moneyString, status: z.number().int().describe('1: approved'), description: z.string(), method: z.literal('creditcard') })
  .meta({ id: 'CardTransaction' });

export const cardCreatedSchema = z
  .object({
    invoice: z.object({ reference: z.string(), total: chargeTotal, due_date: z.string(), status: z.literal('PAID'), transaction: cardTransactionSchema }),
  })
  .meta({ id: 'CardCreated' });

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
    txid: z.string().optional(),
    copy: z.string().optional(),
    qrcode: z.string().optional(),
    customer: z.number().int().optional(),
    boleto: z.string().optional(),
    barcode: z.string().optional(),
    digitable: z.string().optional(),
    card: z.object({ brand: z.string(), last4: z.string(), installments: z.number().int() }).optional(),
    transaction: cardTransactionSchema.optional(),
  })
  .meta({ id: 'Invoice', description: 'A charge. Pix, boleto and card charges add their own fields.' });

export const invoiceResponseSchema = z.object({ invoice: invoiceSchema }).meta({ id: 'InvoiceResponse' });

export const listInvoicesQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    invoice_no: singleLineText(100).min(1).optional(),
    email: singleLineText(255).min(1).optional(),
    start_date: calendarDate.optional(),
    end_date: calendarDate.optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.start_date === undefined) !== (q.end_date === undefined)) {
      ctx.addIssue({ code: 'custom', path: [q.start_date === undefined ? 'start_date' : 'end_date'], message: 'start_date and end_date go together' });
    }
    if (q.start_date && q.end_date && q.start_date > q.end_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'Must not be before start_date' });
  });

export const invoiceListSchema = z
  .object({ invoices: z.array(invoiceSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int() }) })
  .meta({ id: 'InvoiceList' });

export const invoiceIdParamsSchema = z.object({ invoice_id: z.string().regex(/^\d{1,16}$/, 'Must be a numeric id') });
export const invoiceRefParamsSchema = z.object({ ref_id: z.string().max(20) });
export const pixRefParamsSchema = z.object({ ref: z.string().max(20) });
export const pixTxidParamsSchema = z.object({ txid: z.string().max(35) });
