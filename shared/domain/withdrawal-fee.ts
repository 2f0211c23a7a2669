import { formatCents } from './money';
import { RAIL_LIMIT_CENTS } from './rail-limits';

/**
 * The withdrawal fee rule, in one place (issue 32): an account's flat fee per Pix withdrawal, charged on
 * top of the amount (the amount reaches the key; amount + fee leave the balance), and the most one
 * withdrawal may reserve. Values in, values out: the route, the account store, the operator CLI and the
 * schema descriptions read it.
 */

/**
 * The most one withdrawal reserves (amount + fee), in cents: the boleto charge limit, R$ 99,999,999.99,
 * so no single movement out is larger than the largest single card or boleto movement in.
 */
export const WITHDRAW_LIMIT_CENTS = RAIL_LIMIT_CENTS.boleto;

/** Why a fee cannot be an account's, or undefined when it can: whole cents, zero or more, below the withdrawal limit (a fee at the limit leaves nothing to withdraw). */
export function withdrawFeeProblem(feeCents: number): string | undefined {
  if (!Number.isSafeInteger(feeCents) || feeCents < 0) return 'A withdrawal fee is zero or a positive amount in whole cents';
  if (feeCents >= WITHDRAW_LIMIT_CENTS) return `A withdrawal fee must be below ${formatCents(WITHDRAW_LIMIT_CENTS)}, the most one withdrawal reserves`;
  return undefined;
}

/** The fee an account charges per withdrawal, from its stored record (no fee stored: 0). A stored value that breaks the rule is an error, never a guess. */
export function withdrawFeeCentsOf(account: { readonly withdrawFeeCents?: unknown } | undefined): number {
  const stored = account?.withdrawFeeCents;
  if (stored === undefined || stored === null) return 0;
  const feeCents = typeof stored === 'number' ? stored : Number.NaN;
  const problem = withdrawFeeProblem(feeCents);
  if (problem) throw new Error(`Stored withdrawal fee is invalid: ${problem}`);
  return feeCents;
}

/** What one withdrawal reserves: the amount plus the fee. */
export function withdrawalReserveCents(amountCents: number, feeCents: number): number {
  return amountCents + feeCents;
}

/** Why a withdrawal of this amount cannot be reserved with this fee (the amount field's message), or undefined when it can. */
export function withdrawalOverLimit(amountCents: number, feeCents: number): string | undefined {
  if (withdrawalReserveCents(amountCents, feeCents) <= WITHDRAW_LIMIT_CENTS) return undefined;
  return `The amount plus the withdrawal fee (${formatCents(feeCents)}) must be at most ${formatCents(WITHDRAW_LIMIT_CENTS)}`;
}
