import { getEvent, listEvents, ownEvent } from '../../shared/app/events/events-api';
import { redeliverWebhook } from '../../shared/app/webhooks/redeliver-webhook';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { eventsRoutes as routes } from '../../shared/http/route-table/events';
import { eventsPorts } from '../../shared/wiring/events';
import { webhookChanges } from '../../shared/wiring/webhooks';

/**
 * The events API (issue 29), one function: GET /api/events ("what did I miss?"), GET /api/events/{id}
 * (with its delivery attempts) and POST /api/events/{id}/redeliver (the panel's and the operator's
 * redelivery use case). Another account's event, or one past the 30 days, answers 404 on each.
 */

const list = httpHandler(routes.listEvents, async ({ caller, runtime, query }) => ({
  status: 200,
  body: await listEvents(eventsPorts(runtime), requireCaller(caller).accountId, query),
}));

const get = httpHandler(routes.getEvent, async ({ caller, runtime, params }) => ({
  status: 200,
  body: await getEvent(eventsPorts(runtime), requireCaller(caller).accountId, params.id),
}));

const redeliver = httpHandler(
  routes.redeliverEvent,
  async ({ caller, runtime, params }) => {
    const { accountId } = requireCaller(caller);
    const ports = eventsPorts(runtime);
    // Past the 30 days the event is gone for the merchant too (the table's TTL removes it later).
    await ownEvent(ports, accountId, params.id);
    const { answer, changes } = await redeliverWebhook(ports, params.id, accountId);
    return { status: 202, body: { event_id: answer.event_id, status: 'queued' as const }, changes };
  },
  { changes: webhookChanges },
);

export const handler = routeGroupHandler([
  [routes.listEvents, list],
  [routes.getEvent, get],
  [routes.redeliverEvent, redeliver],
]);
