import { z } from 'zod';
import { totalCents } from '../charges/total';
import { RAIL_LIMIT_CENTS } from '../invoices/create';
import { formatCents, parseAmountToCents } from '../money';

/** The fields of the checkout entry form (POST /ext_transfer), exactly these names. Others are ignored. */
export const CHECKOUT_FIELDS = [
  'public_key',
  'tx_ref',
  'callback_url',
  'title',
  'quantity',
  'amount',
  'email',
  'first_name',
  'last_name',
  'product_reference',
  'product_name',
  'signature',
] as const;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

const OPTIONAL_FIELDS: ReadonlySet<CheckoutField> = new Set(['product_reference', 'product_name', 'signature']);
const KNOWN_FIELDS: ReadonlySet<string> = new Set(CHECKOUT_FIELDS);

/** The validated form. `amount` is the unit price (at most 2 decimals); the cents are derived from its text. */
export type CheckoutForm = {
  public_key: string;
  tx_ref: string;
  callback_url: string;
  title: string;
  quantity: number;
  amount: number;
  amount_cents: number;
  /** amount × quantity in cents (spec 1 with tax and discount 0), within `maxTotalCents`. */
  total_cents: number;
  email: string;
  first_name: string;
  last_name: string;
  product_reference?: string;
  product_name?: string;
  signature?: string;
};

export type CheckoutFormErrors = Partial<Record<CheckoutField, string[]>>;

export type CheckoutFormParse =
  /** `fields`: the known fields exactly as sent (empty ones too), what the signature covers. */
  { ok: true; value: CheckoutForm; fields: Partial<Record<CheckoutField, string>> } | { ok: false; errors: CheckoutFormErrors };

export type CheckoutFormOptions = {
  /** The local stack: callback_url may also be http://localhost or http://127.0.0.1 (any port). */
  allowLocalCallback: boolean;
  /** The largest total the checkout takes; by default what both of its rails (Pix and card) can carry. */
  maxTotalCents?: number;
};

/** The lowest rail limit of the checkout's methods: card's 99,999,999.99 (docs/decisions.md, Charges). */
export const CHECKOUT_MAX_TOTAL_CENTS = Math.min(RAIL_LIMIT_CENTS.pix, RAIL_LIMIT_CENTS.creditcard);
/** The largest unit price: the charge routes' amount limit (shared/schemas/charge.ts). */
const MAX_AMOUNT_CENTS = 999_999_999 * 100;

const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be text') });

function callbackUrl(allowLocal: boolean) {
  const rule = allowLocal ? 'Must be an https URL (or http://localhost, http://127.0.0.1)' : 'Must be an https URL';
  return text()
    .max(2048)
    .refine((value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      if (url.username !== '' || url.password !== '' || url.hostname === '') return false;
      if (url.protocol === 'https:') return true;
      return allowLocal && url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
    }, rule);
}

const amount = text()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'Must be a number greater than 0 with at most 2 decimals, e.g. 10.50')
  .transform((value) => parseAmountToCents(value))
  .pipe(
    z
      .number()
      .min(1, 'Must be greater than 0')
      .max(MAX_AMOUNT_CENTS, `Must be at most ${formatCents(MAX_AMOUNT_CENTS)}`),
  );

const quantity = text()
  .regex(/^\d+$/, 'Must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'Must be at least 1').max(100_000, 'Must be at most 100000'));

/** The schema of the form's fields (strings as sent; empty optional fields already dropped). */
export function checkoutFormSchema(options: CheckoutFormOptions) {
  const maxTotal = options.maxTotalCents ?? CHECKOUT_MAX_TOTAL_CENTS;
  return z
    .object({
      public_key: text()
        .regex(/^[A-Za-z0-9_-]{1,100}$/, 'Must be your public key')
        .refine((value) => !value.startsWith('SEC-'), 'This is a secret key: never put it in a page; rotate it now'),
      tx_ref: text().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'Must be 1 to 100 characters of A-Z a-z 0-9 _ . : -'),
      callback_url: callbackUrl(options.allowLocalCallback),
      title: text().trim().min(1, 'Required').max(255),
      quantity,
      amount,
      email: text().trim().max(255).pipe(z.email('Must be an email address')),
      first_name: text().trim().min(1, 'Required').max(100),
      last_name: text().trim().min(1, 'Required').max(100),
      product_reference: text().trim().min(1).max(100).optional(),
      product_name: text().trim().min(1).max(255).optional(),
      signature: text()
        .regex(/^[0-9a-fA-F]{64}$/, 'Must be 64 hexadecimal digits (HMAC-SHA256)')
        .optional(),
    })
    .transform((form, ctx) => {
      // The unit price as a request number, through its exact decimal text (as the charge routes read it).
      const unitPrice = Number(formatCents(form.amount));
      const total = totalCents({ amount: unitPrice, quantity: form.quantity, tax: 0, discount: 0 });
      if (total > BigInt(maxTotal)) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: `The total (amount × quantity) must be at most ${formatCents(maxTotal)}` });
        return z.NEVER;
      }
      const { amount: amountCents, ...rest } = form;
      const value: CheckoutForm = { ...rest, amount: unitPrice, amount_cents: amountCents, total_cents: Number(total) };
      return value;
    });
}

/**
 * Reads an application/x-www-form-urlencoded body (as URLSearchParams does: `+` is a space) into the
 * validated form, or the messages of each bad field. A field sent twice is refused (which value the
 * payer meant is unknown); unknown fields, such as a named submit button, are ignored and not returned;
 * an optional field sent empty counts as absent (but stays in `fields`, which the signature covers).
 */
export function parseCheckoutForm(body: string, options: CheckoutFormOptions): CheckoutFormParse {
  const fields: Partial<Record<CheckoutField, string>> = {};
  const errors: CheckoutFormErrors = {};
  const duplicates = new Set<CheckoutField>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (!KNOWN_FIELDS.has(name)) continue;
    const field = name as CheckoutField;
    if (fields[field] !== undefined) duplicates.add(field);
    else fields[field] = value;
  }
  const input: Partial<Record<CheckoutField, string>> = {};
  for (const field of CHECKOUT_FIELDS) {
    const value = fields[field];
    if (duplicates.has(field)) errors[field] = ['Must be sent once'];
    else if (value !== undefined && !(value === '' && OPTIONAL_FIELDS.has(field))) input[field] = value;
  }
  const parsed = checkoutFormSchema(options).safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field !== 'string' || !KNOWN_FIELDS.has(field)) continue;
      const name = field as CheckoutField;
      if (!duplicates.has(name)) (errors[name] ??= []).push(issue.message);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, value: parsed.data, fields };
}
