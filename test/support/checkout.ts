import { randomInt } from 'node:crypto';
import type { IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { signForm } from '../../shared/app/checkout/form-signature';
import { call, type Reply } from './api';

export type CheckoutFields = Record<string, string>;

/** A valid entry form for the keys' account (override or drop fields: a value of undefined removes it). */
export function entryForm(keys: IssuedKeys, overrides: Record<string, string | undefined> = {}): CheckoutFields {
  const fields: Record<string, string | undefined> = {
    public_key: keys.public_key,
    tx_ref: `order-${randomInt(1_000_000_000)}`,
    callback_url: 'https://shop.example/checkout/done',
    title: 'Camiseta azul',
    quantity: '2',
    amount: '49.90',
    email: 'ana@example.com',
    first_name: 'Ana',
    last_name: 'Silva',
    product_reference: 'SKU-1',
    product_name: 'Camiseta',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function signed(fields: CheckoutFields, secret: string): CheckoutFields {
  return { ...fields, signature: signForm(fields, secret) };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Posts a form as a browser does. */
export function postForm(path: string, fields: CheckoutFields | string, options: { cookie?: string; sourceIp?: string } = {}): Promise<Reply> {
  const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
  return call('POST', path, { headers: { ...FORM, ...(options.cookie ? { cookie: options.cookie } : {}) }, body, sourceIp: options.sourceIp });
}

/** The entry post; the 303's Location (the checkout page path). */
export async function enterCheckout(fields: CheckoutFields): Promise<{ reply: Reply; page: string }> {
  const reply = await postForm('/ext_transfer', fields);
  return { reply, page: String(reply.headers.location ?? '') };
}

/** The page, with the CSRF cookie it set (name=value) and the card form's token. */
export async function openPage(page: string, cookie?: string): Promise<{ reply: Reply; cookie: string; csrf: string }> {
  const reply = await call('GET', page, cookie ? { headers: { cookie } } : {});
  const setCookie = reply.headers['set-cookie'];
  const fresh = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0];
  const csrf = /name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"/.exec(reply.text);
  return { reply, cookie: fresh ?? cookie ?? '', csrf: csrf?.[1] ?? csrf?.[2] ?? '' };
}

export function cardFields(csrf: string, overrides: Record<string, string> = {}): CheckoutFields {
  return {
    creditcard_holder: 'ANA SILVA',
    creditcard_number: '4111111111111111',
    creditcard_cvv: '123',
    creditcard_month: '12',
    creditcard_year: String(new Date().getUTCFullYear() + 2),
    creditcard_brand: 'visa',
    installments: '1',
    csrf_token: csrf,
    ...overrides,
  };
}

/** GET /api/checkout/{tx_ref} as the merchant's server. */
export async function merchantCheckout(auth: Record<string, string>, txRef: string): Promise<Reply> {
  return call('GET', `/api/checkout/${encodeURIComponent(txRef)}`, { headers: auth });
}
