import type { WebhookRedeliveryRequested } from '../../domain/changes';
import { RedeliveryRefusedError } from '../../domain/errors';
import type { WebhookDelivery } from '../../domain/webhooks';
import type { WebhookStore } from '../../ports/webhooks';

export { RedeliveryRefusedError };

export type RedeliverPorts = { webhooks: Pick<WebhookStore, 'event' | 'settings' | 'delivery'>; now: () => Date };

/**
 * A new attempt series for one event (same event id, same stored body, signed afresh by the sender):
 * the operator's `webhook redeliver --event evt_…` and the panel's "Reenviar". With `accountId`, the
 * event must be that account's (another account's is unknown, as the API answers). A delivery that is
 * over (succeeded or failed) is reopened, only if still as read when the change commits (else refused:
 * try again); the request item the change writes is forwarded by the table's stream to the webhook
 * queue as attempt 1 (by the sweep if its stream record is lost), so nothing calls SQS here and a
 * committed request is never lost. A series still running (pending with attempts made, or an attempt
 * holding its lease) is refused: its own messages carry it on. A pending delivery with no attempt made
 * (a redelivery whose message was lost, or a series not started) gets attempt 1 again: a duplicate is
 * absorbed by the sender's claim.
 */
export async function redeliverWebhook(
  ports: RedeliverPorts,
  eventId: string,
  accountId?: string,
): Promise<{ answer: { event_id: string; queued: true }; changes: [WebhookRedeliveryRequested] }> {
  const event = await ports.webhooks.event(eventId);
  if (!event || (accountId !== undefined && event.accountId !== accountId))
    throw new RedeliveryRefusedError('not_found', `Unknown event ${eventId}`, 'event_not_found');
  const settings = await ports.webhooks.settings(event.accountId);
  if (settings.url === undefined) {
    throw new RedeliveryRefusedError('conflict', `The account of ${eventId} has no webhook URL configured`, 'webhook_not_configured');
  }
  const record = await ports.webhooks.delivery(eventId);
  const at = ports.now().toISOString();
  let reopen: WebhookRedeliveryRequested['reopen'];
  if (record) {
    if (record.status === 'succeeded' || record.status === 'failed') reopen = { status: record.status, attempts: record.attempts };
    else if (record.attempts > 0 || (record.claimUntil !== undefined && record.claimUntil > at)) {
      throw new RedeliveryRefusedError(
        'conflict',
        `The delivery of ${eventId} is still running (attempt ${record.attempts} made, next at ${record.nextAttemptAt ?? 'now'}): redeliver it once it has succeeded or failed`,
        'delivery_running',
      );
    }
  }
  return {
    answer: { event_id: eventId, queued: true },
    changes: [{ kind: 'webhook.redelivery_requested', accountId: event.accountId, eventId, at, ...(reopen ? { reopen } : {}) }],
  };
}

/** A delivery as `webhook deliveries` prints it (the API's view, with the account and the series). */
export function operatorDeliveryView(d: WebhookDelivery) {
  return {
    event_id: d.eventId,
    account_id: d.accountId,
    type: d.eventType,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    series: d.series,
    next_attempt_at: d.nextAttemptAt,
    last_status: d.lastStatus,
    last_error: d.lastError,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/** `webhook deliveries --account A [--status S]`: every delivery of the account, newest first, optionally of one status. */
export async function operatorDeliveries(ports: { webhooks: WebhookStore }, accountId: string, status?: string) {
  if (!(await ports.webhooks.accountExists(accountId))) throw new RedeliveryRefusedError('not_found', `Unknown account ${accountId}`, 'account_not_found');
  return (await ports.webhooks.allDeliveries(accountId)).filter((d) => status === undefined || d.status === status).map(operatorDeliveryView);
}
