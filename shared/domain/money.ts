import Big from 'big.js';

Big.RM = Big.roundHalfUp;

const DECIMAL = /^\d{1,13}(\.\d{1,2})?$/;

/** Parses a non-negative decimal amount with at most 2 decimals ("100", "100.5", "0.01") into integer cents. */
export function parseAmountToCents(text: string): number {
  if (!DECIMAL.test(text)) throw new Error(`Invalid amount "${text}": use digits with at most 2 decimals, e.g. 100.00`);
  const cents = new Big(text).times(100);
  const value = Number(cents.toFixed(0));
  if (!Number.isSafeInteger(value)) throw new Error(`Amount "${text}" is too large`);
  return value;
}

/** Integer cents as the 2-decimal string the API answers with ("1234" → "12.34"). */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error('Cents must be a safe integer');
  return new Big(cents).div(100).toFixed(2);
}

/** A request's money number (at most 2 decimals, already validated) as integer cents, through its decimal text. */
export function centsFromNumber(value: number): number {
  return Number(new Big(String(value)).times(100).round(0, Big.roundHalfUp).toFixed(0));
}

/** A request's money amount in integer cents, read once from its JSON number by the route's schema (shared/domain/schemas/charge.ts): never reais. */
export type Cents = number & { readonly unit: 'cents' };

/** A request's money number (at most 2 decimals, already validated) as Cents, through its decimal text: the one parse of the field. */
export function requestCents(value: number): Cents {
  return centsFromNumber(value) as Cents;
}
