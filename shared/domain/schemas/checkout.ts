import * as z from 'zod';
import { moneyString } from './balance';
import { singleLineText } from './text';
import { CHECKOUT_PAYMENT_TYPES } from '../payment-methods';

/** The entry form's fields (application/x-www-form-urlencoded), for the OpenAPI document; shared/checkout/form.ts validates them. */
export const checkoutEntryFormSchema = z
  .object({
    public_key: z.string().max(100).describe('Your public key (PUB-…); never the secret key'),
    tx_ref: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,100}$/)
      .describe('Your reference for this sale: one checkout per tx_ref'),
    callback_url: z.url().max(2048).describe('https URL the payer returns to, with tx_ref and status added to its query'),
    title: singleLineText(255).min(1),
    quantity: z
      .string()
      .regex(/^\d{1,6}$/)
      .describe('1 to 100000'),
    amount: z
      .string()
      .regex(/^\d{1,13}(\.\d{1,2})?$/)
      .describe('Unit price, > 0, at most 2 decimals; amount × quantity at most 9999999999.99'),
    email: z.email().max(255),
    first_name: singleLineText(100).min(1),
    last_name: singleLineText(100).min(1),
    product_reference: singleLineText(100).optional(),
    product_name: singleLineText(255).optional(),
    signature: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional()
      .describe('Hex HMAC-SHA256 of the canonical form with your checkout signing secret; required when your account requires signed forms'),
  })
  .meta({ id: 'CheckoutEntryForm', description: 'The hosted checkout entry form, posted by the payer’s browser from your page.' });

/** Any text: a link that is not one of ours (any length or shape) answers the same 404 as an unknown checkout. */
export const checkoutPageParamsSchema = z.object({ reference: z.string().max(2048), token: z.string().max(2048) });

/** The card form of the checkout page (posted by the payer's browser; the number and CVV are never stored or logged). */
export const checkoutCardFormSchema = z
  .object({
    creditcard_holder: z.string().max(100),
    creditcard_number: z.string().regex(/^\d{12,19}$/),
    creditcard_cvv: z.string().regex(/^\d{3,4}$/),
    creditcard_month: z.string().regex(/^\d{1,2}$/),
    creditcard_year: z.string().regex(/^\d{4}$/),
    creditcard_brand: z.string().max(30),
    installments: z.string().regex(/^\d{1,2}$/),
    csrf_token: z.string().max(64).describe('The token of the page the form came from (bound to its cookie)'),
  })
  .meta({ id: 'CheckoutCardForm' });

export const checkoutStatusSchema = z
  .object({
    status: z.enum(['PENDING', 'PAID', 'ABANDONED', 'UNKNOWN']),
    redirect_url: z.string().nullable().describe('Once PAID: the callback URL with tx_ref and status'),
  })
  .meta({ id: 'CheckoutStatus' });

export const checkoutTxRefParamsSchema = z.object({ tx_ref: z.string().max(300) });

export const checkoutSchema = z
  .object({
    tx_ref: z.string(),
    reference: z.string().describe('CHK-XXXXXXXX'),
    status: z.enum(['PENDING', 'PAID', 'ABANDONED', 'UNKNOWN']),
    title: z.string(),
    quantity: z.number().int(),
    amount: moneyString,
    total: moneyString,
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    payment_type: z.enum(CHECKOUT_PAYMENT_TYPES).nullable(),
    created_at: z.string(),
    paid_at: z.string().nullable(),
    product: z.object({ reference: z.string().nullable(), name: z.string() }),
    invoice_reference: z.string().nullable().describe('The invoice that paid the checkout'),
  })
  .meta({ id: 'Checkout' });

export const checkoutResponseSchema = z
  .object({
    checkout: checkoutSchema,
    checkouts: z
      .array(checkoutSchema)
      .optional()
      .describe(
        'Present when more than one checkout has this tx_ref (an account without signed forms: anyone with the public key may post a sale under any tx_ref): every one, newest first (at most 20). `checkout` is the one with the `total` you asked for, else the newest PAID, else the newest: compare its total with your sale, or ask with ?total=.',
      ),
  })
  .meta({ id: 'CheckoutResponse' });

/** GET /api/checkout/{tx_ref}: optionally the total the merchant's own sale has (the checkout it describes). */
export const checkoutLookupQuerySchema = z.object({
  total: z
    .string()
    .regex(/^\d{1,13}\.\d{2}$/, 'A money string with 2 decimals, e.g. 99.80')
    .optional()
    .describe('The total of your own sale: answers the checkout of this tx_ref with this total (404 when none has it)'),
});
