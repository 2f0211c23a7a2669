import { z } from 'zod';
import { hasAtMostTwoDecimals } from '../charges/total';
import { isValidDocument, documentTypeOf } from './documents';

const TWO_DECIMALS = 'Must have at most 2 decimals';

/** A money amount in a request: a JSON number > 0 with at most 2 decimals (spec 1, 2.1). */
export const moneyInput = (max: number) => z.number().gt(0, 'Must be greater than 0').max(max).refine(hasAtMostTwoDecimals, TWO_DECIMALS);

const percent = z.number().min(0).max(100).refine(hasAtMostTwoDecimals, TWO_DECIMALS);

/** A real calendar date YYYY-MM-DD (2026-02-30 is refused). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date YYYY-MM-DD')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, 'Must be a real calendar date');

/** The common charge fields of spec 2.1. */
export const commonChargeFields = {
  amount: moneyInput(999_999_999),
  quantity: z.number().int().min(1).max(100_000),
  discount: percent,
  tax: percent,
  invoice_no: z.string().trim().min(1).max(100),
  due_date: calendarDate,
  item_name: z.string().trim().min(1).max(255),
  notes: z.string().max(500).optional(),
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
