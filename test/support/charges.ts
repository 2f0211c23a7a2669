import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { call, type Reply } from './api';
import { customerBody, fullAddress } from './customers';

/** Tomorrow's date (YYYY-MM-DD), a due date no rule refuses. */
export function tomorrow(): string {
  return new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
}

export function common(overrides: Record<string, unknown> = {}) {
  return {
    amount: 100,
    quantity: 2,
    tax: 5,
    discount: 10,
    invoice_no: `ORD-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
    due_date: tomorrow(),
    item_name: 'Camiseta',
    ...overrides,
  };
}

export function cardBody(overrides: Record<string, unknown> = {}) {
  return {
    ...common(),
    email: 'comprador@example.com',
    installments: 1,
    creditcard_holder: 'MARIA SILVA',
    creditcard_number: '4111111111111111',
    creditcard_cvv: '987',
    creditcard_month: 12,
    creditcard_year: new Date().getUTCFullYear() + 2,
    creditcard_brand: 'visa',
    ...overrides,
  };
}

export async function createCustomerWithAddress(headers: Record<string, string>): Promise<number> {
  const reply = await call('POST', '/api/customer', { headers, body: customerBody(fullAddress()) });
  if (reply.status !== 200) throw new Error(`customer: ${reply.status} ${reply.text}`);
  return (reply.json as { customer: { id: number } }).customer.id;
}

export type InvoiceReply = Reply & { invoice: Record<string, unknown> };

export async function createCharge(kind: 'pix' | 'boleto' | 'creditcard', headers: Record<string, string>, body: object): Promise<InvoiceReply> {
  const reply = await call('POST', `/api/${kind}/create`, { headers, body });
  return { ...reply, invoice: ((reply.json ?? {}) as { invoice?: Record<string, unknown> }).invoice ?? {} };
}

/** Decodes the QR code of a PNG data URI (pngjs + jsQR, independent of the encoder). */
export function decodeQrDataUri(uri: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(uri.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** A Luhn-valid 16-digit number: the 8-digit prefix, 7 random digits, the check digit. */
function luhnCard(prefix: string): string {
  const body = `${prefix}${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const digits = [...body].map(Number).reverse();
  const sum = digits.reduce((total, digit, i) => total + (i % 2 === 0 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A Luhn-valid Visa number of the simulated provider's declined range (40000099…): a card no other test uses. */
export function declinedTestCard(): string {
  return luhnCard('40000099');
}

/** A Luhn-valid Visa number the simulated provider approves (any outside its test numbers): a card no other test's caps count. */
export function approvedTestCard(): string {
  return luhnCard('41111199');
}
