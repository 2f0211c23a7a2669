/**
 * What a payer owes on a date for a charge with late-payment rules (issue 28, BolePix: the boleto and
 * its due-date Pix charge carry the same rules, so the payer owes the same on either rail). Pure, in
 * integer cents and basis points (hundredths of a percent): no floats.
 *
 * For a payment D calendar days after the due date (1 ≤ D ≤ daysAfterDue):
 *   fine     = total × fine% / 100, once;
 *   interest = total × interest% a month / 100 / 30 × D (API Pix's modality "percent a month,
 *              calendar days": simple, pro rata per calendar day);
 * each rounded half up to the cent; due = total + fine + interest. On or before the due date: the total.
 * Past daysAfterDue: not payable.
 */

/** Late-fee caps: a fine of at most 2% (the consumer-protection code, art. 52 §1), interest of at most 1% a month. */
export const MAX_FINE_BASIS_POINTS = 200;
export const MAX_INTEREST_BASIS_POINTS_A_MONTH = 100;
export const MAX_DAYS_AFTER_DUE = 60;
/** Days after due when a charge with rules does not say (API Pix's own default for validadeAposVencimento). */
export const DEFAULT_DAYS_AFTER_DUE = 30;

export type LatePaymentRules = {
  /** The fine, in hundredths of a percent of the total (2% = 200), 0 to MAX_FINE_BASIS_POINTS. */
  fineBasisPoints: number;
  /** Interest a month, in hundredths of a percent of the total (1% = 100), 0 to MAX_INTEREST_BASIS_POINTS_A_MONTH. */
  interestBasisPointsAMonth: number;
  /** How many calendar days after the due date payment is still accepted (0 to MAX_DAYS_AFTER_DUE). */
  daysAfterDue: number;
};

export type AmountDue =
  { payable: true; daysLate: number; totalCents: number; fineCents: number; interestCents: number; dueCents: number } | { payable: false; daysLate: number };

const DAY_MS = 86_400_000;

/** Calendar days from one 'YYYY-MM-DD' date to another (negative when `to` is earlier). */
export function calendarDaysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);
}

/** numerator / denominator rounded half up, for non-negative safe integers. */
function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

function assertRules(totalCents: number, rules: LatePaymentRules): void {
  const whole = (n: number, max: number) => Number.isSafeInteger(n) && n >= 0 && n <= max;
  if (!Number.isSafeInteger(totalCents) || totalCents <= 0) throw new Error('A total is a positive whole number of cents');
  if (!whole(rules.fineBasisPoints, MAX_FINE_BASIS_POINTS)) throw new Error(`A fine is 0 to ${MAX_FINE_BASIS_POINTS} basis points`);
  if (!whole(rules.interestBasisPointsAMonth, MAX_INTEREST_BASIS_POINTS_A_MONTH))
    throw new Error(`Interest is 0 to ${MAX_INTEREST_BASIS_POINTS_A_MONTH} basis points a month`);
  if (!whole(rules.daysAfterDue, MAX_DAYS_AFTER_DUE)) throw new Error(`days after due is 0 to ${MAX_DAYS_AFTER_DUE}`);
}

/** The amount due for a payment on `payDate` (Brazil's calendar) of a charge due `dueDate`, or not payable past the window. */
export function amountDue(totalCents: number, rules: LatePaymentRules, dueDate: string, payDate: string): AmountDue {
  assertRules(totalCents, rules);
  const daysLate = Math.max(0, calendarDaysBetween(dueDate, payDate));
  if (daysLate > rules.daysAfterDue) return { payable: false, daysLate };
  if (daysLate === 0) return { payable: true, daysLate, totalCents, fineCents: 0, interestCents: 0, dueCents: totalCents };
  // total ≤ ~1e12 cents × 200 bp and × 100 bp × 60 days stay far below 2^53.
  const fineCents = divideHalfUp(totalCents * rules.fineBasisPoints, 10_000);
  const interestCents = divideHalfUp(totalCents * rules.interestBasisPointsAMonth * daysLate, 10_000 * 30);
  return { payable: true, daysLate, totalCents, fineCents, interestCents, dueCents: totalCents + fineCents + interestCents };
}
