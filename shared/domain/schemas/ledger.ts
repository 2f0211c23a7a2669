import * as z from 'zod';
import { LEDGER_ENTRY_TYPES } from '../ledger';
import { moneyString } from './balance';

export { listBalanceTransactionsQuerySchema } from './ledger-query';

export const balanceTransactionSchema = z
  .object({
    id: z.string().describe('txn_ and 24 alphanumerics'),
    type: z.enum(LEDGER_ENTRY_TYPES),
    amount: moneyString.describe('The movement of the available balance. Signed: credits positive, debits negative (e.g. "-10.50")'),
    reserved: moneyString.describe(
      'The movement of the reserved balance (money held by withdrawals in flight), signed: a withdrawal holds amount and fee (+), then its posting (paid) or its release (refused) lets them go (−); "0.00" for every other entry',
    ),
    reference: z.string().describe('What the movement belongs to: an invoice reference, a withdraw reference, or an operator adjustment'),
    description: z.string(),
    created_at: z.string().describe('ISO 8601 time of the movement (UTC)'),
  })
  .meta({ id: 'BalanceTransaction', description: 'One immutable ledger entry: one movement of the available balance, the reserved balance, or both.' });

export const balanceTransactionListSchema = z
  .object({ transactions: z.array(balanceTransactionSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int() }) })
  .meta({
    id: 'BalanceTransactionList',
    description: "Newest first. The available balance equals the sum of all entries' amounts; the reserved balance the sum of their reserved parts.",
  });
