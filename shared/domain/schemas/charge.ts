import * as z from 'zod';
import { singleLineText } from './text';
import { calendarDate } from './calendar-date';
import { invoiceTextRequestShape } from '../invoice-texts';

export { calendarDate };
import { hasAtMostDecimals, MONEY_DECIMALS, PERCENT_DECIMALS, TOTAL_ROUNDING_RULE } from '../charge-total';
import { centsFromNumber, requestCents } from '../money';
import { moneyString } from './balance';
import { isValidDocument, documentTypeOf } from './documents';

const MONEY_PRECISION = `Must have at most ${MONEY_DECIMALS} decimals`;
const PERCENT_PRECISION = `Must have at most ${PERCENT_DECIMALS} decimals`;

/** A money amount in a request: a JSON number > 0 with at most 2 decimals (spec 1, 2.1). */
export const moneyInput = (max: number) =>
  z
    .number()
    .gt(0, 'Must be greater than 0')
    .max(max)
    .refine((value) => hasAtMostDecimals(value, MONEY_DECIMALS), MONEY_PRECISION)
    .describe(`An amount in BRL as a JSON number with at most ${MONEY_DECIMALS} decimals (99.9 or 99.90; 99.901 is refused)`);

/** A percent of spec 2.1 (tax, discount): 0 to 100 with at most 4 decimals (as Stripe's tax rates). */
const percent = z
  .number()
  .min(0)
  .max(100)
  .refine((value) => hasAtMostDecimals(value, PERCENT_DECIMALS), PERCENT_PRECISION)
  .describe(`Percent, 0 to 100, at most ${PERCENT_DECIMALS} decimals`);

/** The total of a charge in answers, with its rounding rule (docs/decisions.md, Charges). */
export const chargeTotal = moneyString.describe(`The charge total in BRL, two decimals. ${TOTAL_ROUNDING_RULE}`);

/** A late-payment percent (issue 28): 0 to `max`, at most 2 decimals (API Pix's valorPerc carries 2). */
const latePercent = (max: number, what: string) =>
  z
    .number()
    .min(0)
    .max(max)
    .refine((value) => hasAtMostDecimals(value, 2), 'Must have at most 2 decimals')
    .describe(what)
    // Read once, here, into basis points (percent × 100, through its decimal text): the use case takes them.
    .transform((percent) => centsFromNumber(percent));

/** A boleto's optional late-payment rules, the same on its Pix half (shared/domain/late-payment.ts). */
export const latePaymentFields = {
  fine: latePercent(
    2,
    'Fine, percent of the total charged once for a payment after the due date: 0 to 2 (the consumer-protection cap), at most 2 decimals. Default 0.',
  ).optional(),
  interest: latePercent(
    1,
    'Interest, percent of the total a month, simple, pro rata per calendar day after the due date (total × interest / 100 / 30 × days): 0 to 1, at most 2 decimals. Default 0.',
  ).optional(),
  days_after_due: z
    .number()
    .int()
    .min(0)
    .max(60)
    .describe(
      'How many calendar days after the due date either rail still accepts payment: 0 to 60. Default 30 (the API Pix default) when the boleto also carries Pix or another late field is given. Past it the invoice is CANCELED.',
    )
    .optional(),
};

/** The common charge fields of spec 2.1 (`amount` read once, here, into integer cents: the use cases take Cents). */
export const commonChargeFields = {
  amount: moneyInput(999_999_999).transform(requestCents),
  quantity: z.number().int().min(1).max(100_000),
  discount: percent,
  tax: percent,
  invoice_no: singleLineText(100).min(1),
  due_date: calendarDate,
  item_name: singleLineText(255).min(1),
  // The merchant's own texts (notes…), each from its row: shared/domain/invoice-texts.ts.
  ...invoiceTextRequestShape(),
};

/** A payer taxpayer document (CPF or CNPJ by its length) with valid check digits. */
export const payerDocument = z
  .string()
  .trim()
  .max(32)
  .refine((doc) => {
    const type = documentTypeOf(doc);
    return type !== undefined && isValidDocument(doc, type);
  }, 'Must be a valid CPF or CNPJ');
