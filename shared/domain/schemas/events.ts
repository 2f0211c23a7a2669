import * as z from 'zod';
import { EVENT_DELIVERY_STATUSES } from '../events-log';
import { WEBHOOK_EVENT_TYPES } from '../webhooks';
import { calendarDate } from './calendar-date';

/** GET /api/events (issue 29): the account's events of the last 30 days, newest first. */
export const listEventsQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    type: z.enum(WEBHOOK_EVENT_TYPES).optional().describe('Only events of this type'),
    start: calendarDate.optional().describe('First day (YYYY-MM-DD, Brazil time), inclusive'),
    end: calendarDate.optional().describe('Last day (YYYY-MM-DD, Brazil time), inclusive'),
    delivery_status: z
      .enum(EVENT_DELIVERY_STATUSES)
      .optional()
      .describe('pending (a series runs or is due), delivered (answered 2xx) or failed (every attempt of its last series failed): "what did I miss?"'),
  })
  .superRefine((q, ctx) => {
    if (q.start && q.end && q.start > q.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'Must not be before start' });
  })
  .meta({ id: 'ListEventsQuery' });

export const eventParamsSchema = z.object({ id: z.string().max(40).describe('The event id (evt_…)') });

const eventFields = {
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  created: z.number().int().describe('Unix seconds'),
  api_version: z.string(),
  data: z.record(z.string(), z.unknown()).describe('As delivered: the invoice, withdraw or order object, with its version and previous_status'),
  delivery_status: z
    .enum([...EVENT_DELIVERY_STATUSES, 'not_sent'])
    .describe('not_sent: no webhook URL was configured, or the type is not subscribed (recorded, never delivered)'),
};

export const loggedEventSchema = z.object(eventFields).meta({ id: 'Event', description: 'A recorded event (kept 30 days) and its delivery status' });

export const eventsListSchema = z
  .object({ events: z.array(loggedEventSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int() }) })
  .meta({ id: 'EventList' });

export const eventDetailSchema = z
  .object({
    event: z.object({
      ...eventFields,
      delivery: z
        .object({
          url: z.string(),
          attempts: z.array(
            z.object({
              at: z.string().describe('When the attempt ended'),
              http_status: z.number().int().nullable().describe('null: no answer (timeout, connection refused)'),
              error: z.string().nullable(),
              duration_ms: z.number().int().describe('Time to answer (or to give up)'),
            }),
          ),
          next_attempt_at: z.string().nullable(),
          series: z.number().int().describe('1, then one more per redelivery'),
        })
        .nullable()
        .describe('null: never sent'),
    }),
  })
  .meta({ id: 'EventDetail' });

export const eventRedeliveredSchema = z.object({ event_id: z.string(), status: z.literal('queued') }).meta({ id: 'EventRedeliveryQueued' });
