import { cardFieldErrors, type CardBrand, detectBrand, normalizeBrand } from '../../domain/card';
import { textProblem } from '../../domain/schemas/text';
import { type CardFieldName, cardFieldMessage } from './page';

/** The card of the checkout page's form, checked (Luhn, brand, CVV length, expiry). Never logged or stored: only brand and last 4 are kept. */
export type CheckoutCard = { number: string; cvv: string; month: number; year: number; brand: CardBrand; holder: string; installments: number };

/** What the page shows again after an error: never the number or the CVV. */
export type CardFormValues = { holder?: string; month?: string; year?: string; brand?: string; installments?: string };

export type CardFormParse =
  { ok: true; card: CheckoutCard; values: CardFormValues } | { ok: false; fieldErrors: Partial<Record<CardFieldName, string[]>>; values: CardFormValues };

const one = (fields: URLSearchParams, name: string): string => (fields.getAll(name).length === 1 ? (fields.get(name) ?? '') : '');
const whole = (text: string): number => (/^\d{1,4}$/.test(text) ? Number(text) : Number.NaN);

/**
 * Reads the card form (field names as the card API's). Spaces and dashes in the number are dropped; an
 * empty brand is taken from the number. Every bad field gets its pt-BR message.
 */
export function parseCardForm(fields: URLSearchParams, now: Date, maxInstallments: number): CardFormParse {
  const holder = one(fields, 'creditcard_holder').normalize('NFC').trim();
  const number = one(fields, 'creditcard_number').replace(/[\s-]/g, '');
  const cvv = one(fields, 'creditcard_cvv').trim();
  const monthText = one(fields, 'creditcard_month').trim();
  const yearText = one(fields, 'creditcard_year').trim();
  const brandText = one(fields, 'creditcard_brand').trim();
  const installmentsText = one(fields, 'installments').trim() || '1';
  const values: CardFormValues = { holder, month: monthText, year: yearText, brand: brandText, installments: installmentsText };
  const brand = brandText === '' ? detectBrand(number) : normalizeBrand(brandText);
  const month = whole(monthText);
  const year = whole(yearText);
  const bad = new Set<CardFieldName>(
    Object.keys(cardFieldErrors({ number, cvv, month, year, brand: brand ?? brandText }, now)).filter((field): field is CardFieldName =>
      field.startsWith('creditcard_'),
    ),
  );
  if (holder.length < 1 || holder.length > 100 || textProblem(holder, false) !== undefined) bad.add('creditcard_holder');
  if (brand === undefined) bad.add('creditcard_brand');
  const installments = whole(installmentsText);
  if (!Number.isInteger(installments) || installments < 1 || installments > maxInstallments) bad.add('installments');
  if (bad.size > 0 || brand === undefined) {
    const fieldErrors: Partial<Record<CardFieldName, string[]>> = {};
    for (const field of bad) fieldErrors[field] = [cardFieldMessage(field)];
    return { ok: false, fieldErrors, values };
  }
  return { ok: true, card: { number, cvv, month, year, brand, holder, installments }, values };
}
