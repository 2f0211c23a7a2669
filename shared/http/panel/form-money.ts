import Big from 'big.js';

/**
 * An amount typed in a panel form, as people in Brazil write it: `1.234,56`, `1234,56`, `1234.56` or
 * `1234` (R$ and spaces allowed). Integer cents, or undefined when it is not an amount (more than two
 * decimals, letters, a sign). Never a float.
 */
const GROUPED = /^\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?$/;
const COMMA = /^\d{1,12}(?:,\d{1,2})?$/;
const DOT = /^\d{1,12}(?:\.\d{1,2})?$/;

export function centsFromFormAmount(text: string): number | undefined {
  const typed = text.replace(/^R\$/i, '').replace(/\s/g, '');
  let decimal: string;
  if (GROUPED.test(typed)) decimal = typed.replace(/\./g, '').replace(',', '.');
  else if (COMMA.test(typed)) decimal = typed.replace(',', '.');
  else if (DOT.test(typed)) decimal = typed;
  else return undefined;
  const cents = Number(new Big(decimal).times(100).toFixed(0));
  return Number.isSafeInteger(cents) ? cents : undefined;
}
