import * as z from 'zod';
import { moneyString } from '../money-text';

export { moneyString };

export const balanceResponseSchema = z
  .object({
    balance: z.object({
      available: moneyString.describe('What can be withdrawn now: credits minus withdrawals paid or in flight'),
      reserved: moneyString.describe('What withdrawals in flight hold (amount plus fee) until the bank pays or refuses them; not part of available'),
      currency: z.literal('BRL'),
    }),
  })
  .meta({ id: 'BalanceResponse' });
