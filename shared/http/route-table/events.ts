/** The route table's rows for functions/events/ (issue 29: the events API), one function for the three. */
import { defineRoute, type AnyRoute } from '../route';
import { eventDetailSchema, eventParamsSchema, eventRedeliveredSchema, eventsListSchema, listEventsQuerySchema } from '../../domain/schemas/events';
import { bearerRead, bearerWrite } from './policies';

const EVENTS = { fn: 'Events', handler: 'functions/events/api.ts', tag: 'Events' } as const;

export const eventsRoutes = {
  listEvents: defineRoute({
    id: 'ListEvents',
    ...EVENTS,
    method: 'GET',
    path: '/api/events',
    ...bearerRead,
    summary: 'The events recorded for your account in the last 30 days, newest first ("what did I miss?")',
    description:
      'Every event the webhook sends (or would send: an unsubscribed type or no URL shows not_sent), with its delivery status. Filter by type, a Brazil-date range (start, end) and delivery_status (pending, delivered, failed). Events are kept 30 days.',
    request: { query: listEventsQuerySchema },
    responses: { 200: { description: 'One page of events', schema: eventsListSchema } },
  }),
  getEvent: defineRoute({
    id: 'GetEvent',
    ...EVENTS,
    method: 'GET',
    path: '/api/events/{id}',
    ...bearerRead,
    summary: 'One event with its delivery attempts (time, HTTP status, error, time to answer)',
    request: { params: eventParamsSchema },
    responses: { 200: { description: 'The event', schema: eventDetailSchema }, 404: { description: 'Not an event of your account, or older than 30 days' } },
  }),
  redeliverEvent: defineRoute({
    id: 'RedeliverEvent',
    ...EVENTS,
    changes: ['webhook.redelivery_requested'],
    method: 'POST',
    path: '/api/events/{id}/redeliver',
    ...bearerWrite,
    idempotency: 'none',
    summary: 'Deliver an event again: a new attempt series with the same id and body, once its last series ended',
    description:
      'The merchant panel’s “Reenviar” and the operator’s `webhook redeliver` use the same use case. Repeating the call while the new series runs answers 409, so it is safe to retry. The receiver deduplicates by Service-Event-Id.',
    request: { params: eventParamsSchema },
    responses: {
      202: { description: 'Queued', schema: eventRedeliveredSchema },
      404: { description: 'Not an event of your account, or older than 30 days' },
      409: { description: 'Its delivery series is still running (code delivery_running), or no webhook URL is configured (webhook_not_configured)' },
    },
  }),
} satisfies Record<string, AnyRoute>;
