import { invoiceTextsOfBody, type InvoiceTextsBody } from '../../domain/invoice-texts';
import type { Caller } from '../../domain/account';
import { totalCents } from '../../domain/charge-total';
import { brazilDate } from '../../domain/brazil-dates';
import { type Cents, formatCents } from '../../domain/money';
import { settingOfCharge } from '../../domain/payment-methods';
import { RAIL_LIMIT_CENTS } from '../../domain/rail-limits';
import type { InvoiceMethod } from '../../domain/invoice';
import { BadRequestError, ValidationError } from '../../domain/errors';
import { lastPixDueDate } from '../../domain/pix-expiration';
import { DEFAULT_DAYS_AFTER_DUE, type LatePaymentRules } from '../../domain/late-payment';

/** What every charge request is checked for before anything is asked or written: the method enabled, the total on its rail, the due date. */

/** 400 when the account has not enabled the method (spec 1). */
export function assertMethodEnabled(caller: Caller, method: InvoiceMethod): void {
  if (!caller.account?.methods.includes(settingOfCharge(method))) {
    throw new BadRequestError(`The payment method ${method} is not enabled for this account`, 'method_not_enabled');
  }
}

/** A charge request's amounts as its route's schema gives them: `amount` already read into cents (its one parse). */
export type RequestAmounts = { amount: Cents; quantity: number; tax: number; discount: number };

/** The charge total in cents, checked against the rail: beyond it → 422 on amount; zero → 422 on discount. */
export function checkedTotalCents(amounts: RequestAmounts, method: InvoiceMethod): number {
  const total = totalCents({ amountCents: amounts.amount, quantity: amounts.quantity, tax: amounts.tax, discount: amounts.discount });
  const limit = RAIL_LIMIT_CENTS[method];
  if (total > BigInt(limit)) throw new ValidationError({ amount: [`The total exceeds what ${method} can carry (at most ${formatCents(limit)})`] });
  if (total < 1n) throw new ValidationError({ discount: ['The total must be at least 0.01'] });
  return Number(total);
}

/** The account's display name, for BR Codes and boleto pages. */
export function merchantName(caller: Caller): string {
  return caller.account?.name ?? 'Merchant';
}

/** Pix and boleto charges cannot fall due before today (Brazil's date): 422 on due_date. */
export function assertDueDateNotPast(dueDate: string, now: Date): void {
  if (dueDate < brazilDate(now)) throw new ValidationError({ due_date: ['Must be today or later'] });
}

/** A Pix charge's due date must fit API Pix's int32 `calendario.expiracao` from now: 422 on due_date naming the last date allowed. */
export function assertPixDueDateCarried(dueDate: string, now: Date): void {
  const last = lastPixDueDate(now);
  if (dueDate > last) throw new ValidationError({ due_date: [`Must be ${last} or earlier: a Pix charge cannot stay payable longer`] });
}

/**
 * What a dated charge (Pix, boleto) is checked for before anything is read or asked: the method enabled
 * (400), the due date today or later and one the rail carries (`carried`: 422 on due_date), the total
 * within the rail's ceiling (422); answers the total in cents.
 */
export function checkedDatedCharge(
  caller: Caller,
  body: RequestAmounts & { due_date: string },
  now: Date,
  method: InvoiceMethod,
  carried: (dueDate: string, now: Date) => void,
): number {
  assertMethodEnabled(caller, method);
  assertDueDateNotPast(body.due_date, now);
  carried(body.due_date, now);
  return checkedTotalCents(body, method);
}

export type ChargeBody = RequestAmounts & InvoiceTextsBody & { invoice_no: string; item_name: string; due_date: string };

/** The fields every new invoice shares, from the request's common charge fields. */
export function baseInvoice(caller: Caller, body: ChargeBody, ids: { invoiceId: number; reference: string }, totalCentsValue: number, now: Date) {
  return {
    accountId: caller.accountId,
    invoiceId: ids.invoiceId,
    reference: ids.reference,
    merchantName: merchantName(caller),
    invoiceNo: body.invoice_no,
    itemName: body.item_name,
    quantity: body.quantity,
    amountCents: body.amount,
    tax: body.tax,
    discount: body.discount,
    totalCents: totalCentsValue,
    dueDate: body.due_date,
    ...invoiceTextsOfBody(body),
    createdAt: now.toISOString(),
  };
}

/** A boleto request's late-payment fields: the percents in basis points (read once by the route's schema), the days as given. */
export type LatePaymentFields = { fine?: number; interest?: number; days_after_due?: number };

/**
 * A boleto's late-payment rules: those asked, the rest at their defaults (no fine, no interest,
 * DEFAULT_DAYS_AFTER_DUE days), for a BolePix (its Pix half needs a validity after the due date) or when
 * any field is given; undefined for a plain boleto that asks none (it stays as boletos were).
 */
export function lateRulesOf(fields: LatePaymentFields, carriesPix: boolean): LatePaymentRules | undefined {
  const asked = fields.fine !== undefined || fields.interest !== undefined || fields.days_after_due !== undefined;
  if (!asked && !carriesPix) return undefined;
  return {
    fineBasisPoints: fields.fine ?? 0,
    interestBasisPointsAMonth: fields.interest ?? 0,
    daysAfterDue: fields.days_after_due ?? DEFAULT_DAYS_AFTER_DUE,
  };
}
