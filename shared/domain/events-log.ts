import type { WebhookDelivery } from './webhooks';

/**
 * The events API (issue 29): what a receiver may ask about the events recorded for its account ("what
 * did I miss?"). Pure: retention, the delivery status an event shows, and the views.
 */

/** How long events are kept (and listed): 30 days. The table's TTL removes them; reads stop showing them at once. */
export const EVENT_RETENTION_DAYS = 30;
export const EVENT_RETENTION_SECONDS = EVENT_RETENTION_DAYS * 86_400;

/** The delivery status filters of GET /api/events. */
export const EVENT_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type EventDeliveryFilter = (typeof EVENT_DELIVERY_STATUSES)[number];

/**
 * An event's delivery status: `delivered` (an attempt answered 2xx), `failed` (every attempt of its last
 * series failed), `pending` (a series runs or is due), or `not_sent` (the account had no webhook URL, or
 * does not subscribe to the type: recorded, never delivered).
 */
export type EventDeliveryStatus = EventDeliveryFilter | 'not_sent';

/**
 * How long an event with no delivery record may still be on its way to the sender (the stream forwards
 * in seconds; the sweep, within 10 minutes): past it, an event never started was not sent.
 */
export const UNSTARTED_PENDING_MS = 60 * 60 * 1000;

/** `sendable`: the account has a URL and subscribes to the event's type now; `ageMs`: since the event was recorded. */
export function eventDeliveryStatus(delivery: Pick<WebhookDelivery, 'status'> | undefined, sendable: boolean, ageMs: number): EventDeliveryStatus {
  if (delivery?.status === 'succeeded') return 'delivered';
  if (delivery?.status === 'failed') return 'failed';
  if (delivery?.status === 'pending') return 'pending';
  return sendable && ageMs < UNSTARTED_PENDING_MS ? 'pending' : 'not_sent';
}

/** A recorded event as the events API reads it: the exact event sent, and its account. */
export type LoggedEvent = { accountId: string; event: { id: string; type: string; created: number; api_version: string; data: Record<string, unknown> } };

/** Whether an event is still kept at `now` (the TTL may remove it days later: reads stop at 30 days). */
export function isRetained(event: Pick<LoggedEvent['event'], 'created'>, now: Date): boolean {
  return event.created * 1000 > now.getTime() - EVENT_RETENTION_SECONDS * 1000;
}

/** An event as the events API shows it: the event itself and its delivery status. */
export function eventView(logged: LoggedEvent, status: EventDeliveryStatus) {
  return { ...logged.event, delivery_status: status };
}

/** An event with its delivery attempts (GET /api/events/{id}): when each ended, its HTTP status, its error and the time to answer. */
export function eventDetailView(logged: LoggedEvent, status: EventDeliveryStatus, delivery: WebhookDelivery | undefined) {
  return {
    ...eventView(logged, status),
    delivery: delivery
      ? {
          url: delivery.url,
          attempts: delivery.attemptLog.map((attempt) => ({
            at: attempt.at,
            http_status: attempt.httpStatus,
            error: attempt.error,
            duration_ms: attempt.durationMs,
          })),
          next_attempt_at: delivery.nextAttemptAt,
          series: delivery.series,
        }
      : null,
  };
}
