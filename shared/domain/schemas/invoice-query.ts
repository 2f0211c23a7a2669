import * as z from 'zod';
import { calendarDate } from './calendar-date';
import { singleLineText } from './text';

/** GET /api/invoices' query (and the panel's invoices page): its own module, apart from the invoice schemas (small bundles). */
export const listInvoicesQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    invoice_no: singleLineText(100).min(1).optional(),
    email: singleLineText(255).min(1).optional(),
    start_date: calendarDate.optional(),
    end_date: calendarDate.optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.start_date === undefined) !== (q.end_date === undefined)) {
      ctx.addIssue({ code: 'custom', path: [q.start_date === undefined ? 'start_date' : 'end_date'], message: 'start_date and end_date go together' });
    }
    if (q.start_date && q.end_date && q.start_date > q.end_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'Must not be before start_date' });
  });
