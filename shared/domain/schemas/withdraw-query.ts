import * as z from 'zod';
import { calendarDate } from './calendar-date';

/** GET /api/pixout/list's query (and the panel's withdrawals page): its own module, apart from the withdraw schemas (small bundles). */
export const listWithdrawalsQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    start: calendarDate.optional(),
    end: calendarDate.optional(),
    status: z.enum(['PENDING', 'PAID', 'CANCELED']).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.start && q.end && q.start > q.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'Must not be before start' });
  });
