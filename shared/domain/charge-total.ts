import Big from 'big.js';

Big.RM = Big.roundHalfUp;

/** A charge's amounts: the unit amount in integer cents (read once from the request), the quantity, and the tax and discount percents. */
export type ChargeAmounts = { amountCents: number; quantity: number; tax: number; discount: number };

/** Decimals allowed in request money (amounts) and in percents (tax, discount: Stripe's tax rates take 4). */
export const MONEY_DECIMALS = 2;
export const PERCENT_DECIMALS = 4;

/**
 * The rounding rule of the total, as documented in docs/decisions.md and the OpenAPI document: exact
 * decimal arithmetic, then one rounding half-up to cents at the end.
 */
export const TOTAL_ROUNDING_RULE =
  'total = amount × quantity × (1 + tax/100 − discount/100), computed in exact decimal arithmetic and rounded once, at the end, to cents, half up (a half cent goes up): amount 0.05 × quantity 1 with tax 10 gives 0.055, answered "0.06".';

/**
 * The charge total of spec 1, in exact decimal arithmetic: subtotal = amount × quantity;
 * total = subtotal + subtotal × tax / 100 − subtotal × discount / 100 = subtotal × (100 + tax − discount) / 100,
 * so the total in cents is exactly subtotal cents × (100 + tax − discount) / 100: products of decimals and
 * one exact division by 100, nothing lost whatever the decimals of the percents. Rounded half-up to cents
 * only at the end. The amount comes in integer cents (the route's schema read it once from the request's
 * number); the percents are the request's JSON numbers, read through their shortest decimal text (so 0.1
 * is exactly 0.1). Returns integer cents as a bigint: the whole input range (up to 999999999.99 ×
 * 100000 × 2 in reais) goes past 2^53, so only the rail check (which keeps far lower limits) turns it
 * into a number.
 */
export function totalCents(input: ChargeAmounts): bigint {
  const subtotalCents = new Big(input.amountCents).times(input.quantity);
  const percent = new Big(100).plus(String(input.tax)).minus(String(input.discount));
  return BigInt(subtotalCents.times(percent).div(100).round(0, Big.roundHalfUp).toFixed(0));
}

/**
 * The number of decimals of a finite number's shortest decimal text (what JSON.stringify writes and
 * what the client most likely sent): 1.005 has 3, 1e-7 has 7, 1e21 has 0. Undefined for NaN and ±∞.
 */
export function decimalPlaces(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const [mantissa = '', exponent = '0'] = String(value).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** Finite, with at most `decimals` decimals in its shortest decimal text. */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const places = decimalPlaces(value);
  return places !== undefined && places <= decimals;
}

/** Has at most two decimals, judged on the number's shortest decimal text (1.005 has three). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return hasAtMostDecimals(value, MONEY_DECIMALS);
}
