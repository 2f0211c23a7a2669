import * as z from 'zod';
import { totalCents } from '../../domain/charge-total';
import { RAIL_LIMIT_CENTS } from '../../domain/rail-limits';
import { formatCents, parseAmountToCents } from '../../domain/money';
import { PT_BR_TEXT_MESSAGES, singleLineText } from '../../domain/schemas/text';
import { formatBrl } from '../kit/html';

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

/** The lowest rail limit of the checkout's methods (Pix and card both carry 9,999,999,999.99: docs/decisions.md, Charges). */
export const CHECKOUT_MAX_TOTAL_CENTS = Math.min(RAIL_LIMIT_CENTS.pix, RAIL_LIMIT_CENTS.creditcard);
/** The largest unit price: the charge routes' amount limit (shared/domain/schemas/charge.ts). */
const MAX_AMOUNT_CENTS = 999_999_999 * 100;

/** The form's messages are shown to payers and merchants in pt-BR (docs/decisions.md, Hosted checkout). */
const REQUIRED = 'Campo obrigatório';
const maxChars = (max: number) => `Deve ter no máximo ${max} caracteres`;
const BLANK = 'Não pode conter apenas espaços';
const SENT_TWICE = 'Deve ser enviado uma única vez';

const text = () => z.string({ error: (issue) => (issue.input === undefined ? REQUIRED : 'Deve ser texto') });

/** A free-text field: NFC, trimmed, one line, no control or bidi-override characters, not only invisible ones (shared/domain/schemas/text.ts). */
const line = (max: number) => singleLineText(max, { base: text(), messages: { ...PT_BR_TEXT_MESSAGES, tooLong: maxChars } });

/**
 * The callback URL in its canonical form (WHATWG URL serialization), or undefined when `value` is not
 * already in it: a parser would read something else than a person or another parser sees (a backslash
 * for a slash, a userinfo `@`, a control or whitespace character dropped, a host in Unicode shown to a
 * person and in punycode to the browser). Only an empty path's missing slash is let through.
 */
export function canonicalCallbackUrl(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const href = new URL(value).href;
  return href === value || href === `${value}/` ? href : undefined;
}

/** The callback URL's message: which form to send (the canonical one, when the value parses). */
function callbackRule(allowLocal: boolean): string {
  return allowLocal ? 'Deve ser uma URL https (ou http://localhost, http://127.0.0.1)' : 'Deve ser uma URL https';
}

function callbackUrl(allowLocal: boolean) {
  const rule = callbackRule(allowLocal);
  return (
    text()
      .max(2048, maxChars(2048))
      .refine((value) => {
        if (!URL.canParse(value)) return false;
        const url = new URL(value);
        if (url.username !== '' || url.password !== '' || url.hostname === '') return false;
        if (url.protocol === 'https:') return true;
        return allowLocal && url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
      }, rule)
      .superRefine((value, ctx) => {
        if (!URL.canParse(value) || canonicalCallbackUrl(value) !== undefined) return;
        ctx.addIssue({
          code: 'custom',
          message: `Deve estar na forma canônica, sem barras invertidas, espaços, caracteres de controle nem usuário (por exemplo ${JSON.stringify(new URL(value).href)})`,
        });
      })
      // Stored and redirected to as the canonical serialization (an empty path gets its slash).
      .transform((value) => canonicalCallbackUrl(value) ?? value)
  );
}

const amount = text()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'Deve ser um número maior que 0 com no máximo 2 casas decimais e ponto como separador, por exemplo 10.50')
  .transform((value) => parseAmountToCents(value))
  .pipe(
    z
      .number()
      .min(1, 'Deve ser maior que 0')
      .max(MAX_AMOUNT_CENTS, `Deve ser no máximo ${formatCents(MAX_AMOUNT_CENTS)} (${formatBrl(MAX_AMOUNT_CENTS)})`),
  );

const quantity = text()
  .regex(/^\d+$/, 'Deve ser um número inteiro')
  .transform(Number)
  .pipe(z.number().int('Deve ser um número inteiro').min(1, 'Deve ser no mínimo 1').max(100_000, 'Deve ser no máximo 100.000'));

/** The schema of the form's fields (strings as sent; empty optional fields already dropped). */
export function checkoutFormSchema(options: CheckoutFormOptions) {
  const maxTotal = options.maxTotalCents ?? CHECKOUT_MAX_TOTAL_CENTS;
  return z
    .object({
      public_key: text()
        .regex(/^[A-Za-z0-9_-]{1,100}$/, 'Deve ser a sua chave pública')
        .refine((value) => !value.startsWith('SEC-'), 'Esta é a sua chave secreta: nunca a coloque em uma página; troque-a agora'),
      tx_ref: text().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'Deve ter de 1 a 100 caracteres entre A-Z a-z 0-9 _ . : -'),
      callback_url: callbackUrl(options.allowLocalCallback),
      title: line(255).min(1, REQUIRED),
      quantity,
      amount,
      email: text().trim().max(255, maxChars(255)).pipe(z.email('Deve ser um endereço de e-mail')),
      first_name: line(100).min(1, REQUIRED),
      last_name: line(100).min(1, REQUIRED),
      product_reference: line(100).min(1, BLANK).optional(),
      product_name: line(255).min(1, BLANK).optional(),
      signature: text()
        .regex(/^[0-9a-fA-F]{64}$/, 'Deve ter 64 dígitos hexadecimais (HMAC-SHA256)')
        .optional(),
    })
    .transform((form, ctx) => {
      // The unit price as a request number, through its exact decimal text (as the charge routes read it).
      const unitPrice = Number(formatCents(form.amount));
      const total = totalCents({ amount: unitPrice, quantity: form.quantity, tax: 0, discount: 0 });
      if (total > BigInt(maxTotal)) {
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: `O total (valor × quantidade) deve ser no máximo ${formatCents(maxTotal)} (${formatBrl(maxTotal)})`,
        });
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
    if (duplicates.has(field)) errors[field] = [SENT_TWICE];
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
