import * as z from 'zod';
import { LEDGER_ENTRY_TYPES } from '../ledger';
import { calendarDate } from './calendar-date';

/**
 * GET /api/balance/transactions: the account's statement (issue 11). start and end are Brazil-time
 * calendar dates, inclusive; either may come alone; start after end is refused on `end`.
 */
export const listBalanceTransactionsQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    type: z.enum(LEDGER_ENTRY_TYPES).optional().describe('Only the entries of this type'),
    start: calendarDate.optional().describe('First day (YYYY-MM-DD, Brazil time), inclusive'),
    end: calendarDate.optional().describe('Last day (YYYY-MM-DD, Brazil time), inclusive'),
  })
  .superRefine((q, ctx) => {
    if (q.start && q.end && q.start > q.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'Must not be before start' });
  })
  .meta({ id: 'BalanceTransactionsQuery' });
