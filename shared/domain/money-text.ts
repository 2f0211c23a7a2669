import * as z from 'zod';

/** A money amount as answers write it: BRL with two decimals ("12.30"); its own module, so that modules without schemas bundle no zod. */
export const moneyString = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('Decimal amount in BRL with two decimals');
