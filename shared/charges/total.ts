import Big from 'big.js';

Big.RM = Big.roundHalfUp;

export type ChargeAmounts = { amount: number; quantity: number; tax: number; discount: number };

/**
 * The charge total of spec 1, in exact decimal arithmetic: subtotal = amount × quantity;
 * total = subtotal + subtotal × tax / 100 − subtotal × discount / 100; rounded half-up to cents
 * only at the end. Inputs are the JSON numbers of the request, read through their shortest
 * decimal text (so 0.1 is exactly 0.1). Returns integer cents as a bigint: the whole input range
 * (up to 999999999.99 × 100000 × 2 in reais) goes past 2^53, so only the rail check (which keeps far
 * lower limits) turns it into a number.
 */
export function totalCents(input: ChargeAmounts): bigint {
  const subtotal = new Big(String(input.amount)).times(String(input.quantity));
  const total = subtotal.plus(subtotal.times(String(input.tax)).div(100)).minus(subtotal.times(String(input.discount)).div(100));
  return BigInt(total.times(100).round(0, Big.roundHalfUp).toFixed(0));
}

/** Has at most two decimals, judged on the number's shortest decimal text (1.005 has three). */
export function hasAtMostTwoDecimals(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const text = String(value);
  if (/e/i.test(text)) return Number.isInteger(value);
  const decimals = text.split('.')[1];
  return decimals === undefined || decimals.length <= 2;
}
