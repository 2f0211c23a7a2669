import { requireCaller } from '../../shared/auth/caller';
import { newEvent, outboxWrite } from '../../shared/events/outbox';
import { ConflictError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';

/** POST /api/webhook/test: queues one ping event through the same pipeline as every event (202); no URL → 409. */
export const handler = httpHandler(routes.testWebhook, async ({ caller, runtime, now }) => {
  const account = requireCaller(caller);
  if (typeof account.account?.webhookUrl !== 'string') throw new ConflictError('No webhook is configured: PUT /api/webhook first', 'webhook_not_configured');
  const event = newEvent('ping', { message: 'Test event from the payment gateway: your endpoint is reachable.' }, now);
  return { status: 202, body: { event_id: event.id, status: 'queued' }, writes: [outboxWrite(runtime.config.tableName, account.accountId, event)] };
});
