import { brazilDayBounds } from '../../domain/brazil-dates';
import {
  EVENT_RETENTION_SECONDS,
  type EventDeliveryFilter,
  eventDeliveryStatus,
  eventDetailView,
  eventView,
  isRetained,
  type LoggedEvent,
} from '../../domain/events-log';
import { subscribes, type WebhookSettings } from '../../domain/webhooks';
import { NotFoundError } from '../../domain/errors';
import type { EventLog, WebhookStore } from '../../ports/webhooks';

/** The events API's reads (issue 29): the account's recorded events and their delivery. */
export type EventsPorts = { log: EventLog; webhooks: Pick<WebhookStore, 'settings' | 'delivery'>; now: () => Date };

export type ListEventsQuery = { page: number; limit: number; type?: string; start?: string; end?: string; delivery_status?: EventDeliveryFilter };

/** At most this many events are read for one page (a filter by delivery status reads past the ones it drops). */
export const MAX_EVENTS_SCANNED = 2_000;

/** Whether the account's webhook, as configured now, sends an event of this type. */
const sendableBy = (settings: WebhookSettings) => (type: string) => settings.url !== undefined && subscribes(settings, type);

/**
 * GET /api/events: the account's events of the last 30 days, newest first ("what did I miss?"), of one
 * type, in a Brazil-date range, and of one delivery status (pending, delivered or failed), paged.
 */
export async function listEvents(ports: EventsPorts, accountId: string, query: ListEventsQuery) {
  const now = ports.now();
  const settings = await ports.webhooks.settings(accountId);
  const sendable = sendableBy(settings);
  const oldest = new Date(now.getTime() - EVENT_RETENTION_SECONDS * 1000).toISOString();
  const start = query.start ? new Date(brazilDayBounds(query.start).startMs).toISOString() : oldest;
  const from = start > oldest ? start : oldest;
  const to = query.end ? new Date(brazilDayBounds(query.end).endMs).toISOString() : now.toISOString();
  // A range wholly in the future, or wholly past the 30 days kept: no event (and no empty key range for DynamoDB).
  if (from > to) return { events: [], pagination: { page: query.page, limit: query.limit } };
  const events = await ports.log.list(
    { accountId, fromIso: from, toIso: to, ...(query.type ? { type: query.type } : {}) },
    { page: query.page, pageSize: query.limit, maxScanned: MAX_EVENTS_SCANNED },
    (logged, delivery) => {
      const status = eventDeliveryStatus(delivery, sendable(logged.event.type), now.getTime() - logged.event.created * 1000);
      if (query.delivery_status !== undefined && status !== query.delivery_status) return undefined;
      return eventView(logged, status);
    },
  );
  return { events, pagination: { page: query.page, limit: query.limit } };
}

/** The account's event (another account's, or one past the 30 days: 404, whoever asks). */
export async function ownEvent(ports: Pick<EventsPorts, 'log' | 'now'>, accountId: string, eventId: string): Promise<LoggedEvent> {
  const logged = await ports.log.get(eventId);
  if (!logged || logged.accountId !== accountId || !isRetained(logged.event, ports.now())) throw new NotFoundError('Event not found');
  return logged;
}

/** GET /api/events/{id}: the event, its delivery status and every delivery attempt (time, HTTP status, error, time to answer). */
export async function getEvent(ports: EventsPorts, accountId: string, eventId: string) {
  const logged = await ownEvent(ports, accountId, eventId);
  const [settings, delivery] = await Promise.all([ports.webhooks.settings(accountId), ports.webhooks.delivery(eventId)]);
  const status = eventDeliveryStatus(delivery, sendableBy(settings)(logged.event.type), ports.now().getTime() - logged.event.created * 1000);
  return { event: eventDetailView(logged, status, delivery) };
}
