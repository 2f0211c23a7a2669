import type { WebhookDelivery } from '../../domain/webhooks';
import type { WebhookStore } from '../../ports/webhooks';
import type { WebhookMessage } from './deliver-webhook';

/** A refusal the operator can act on (the CLI's exit 1): unknown event or account, a series still running. */
export class RedeliveryRefusedError extends Error {}

export type RedeliverPorts = { webhooks: WebhookStore; send: (message: WebhookMessage) => Promise<void>; now: () => Date };

/**
 * `webhook redeliver --event evt_…`: a new attempt series for one event (same event id, same stored
 * body, signed afresh by the sender). A delivery that is over (succeeded or failed) is reopened first
 * (only if still as read: else refused, run again); then attempt 1's message goes to the webhook queue,
 * as the stream forwarder sends it. A series still running (pending with attempts made, or an attempt
 * holding its lease) is refused: its own messages carry it on. A pending delivery with no attempt made
 * (a redelivery whose message was lost, or a series not started) gets attempt 1 again: a duplicate is
 * absorbed by the sender's claim.
 */
export async function redeliverWebhook(ports: RedeliverPorts, eventId: string): Promise<{ event_id: string; queued: true }> {
  const event = await ports.webhooks.event(eventId);
  if (!event) throw new RedeliveryRefusedError(`Unknown event ${eventId}`);
  const settings = await ports.webhooks.settings(event.accountId);
  if (settings.url === undefined) throw new RedeliveryRefusedError(`The account of ${eventId} has no webhook URL configured`);
  const record = await ports.webhooks.delivery(eventId);
  const now = ports.now().toISOString();
  if (record) {
    if (record.status === 'succeeded' || record.status === 'failed') {
      if (!(await ports.webhooks.reopen(eventId, { status: record.status, attempts: record.attempts }, now))) {
        throw new RedeliveryRefusedError(`The delivery of ${eventId} changed meanwhile: run the command again`);
      }
    } else if (record.attempts > 0 || (record.claimUntil !== undefined && record.claimUntil > now)) {
      throw new RedeliveryRefusedError(
        `The delivery of ${eventId} is still running (attempt ${record.attempts} made, next at ${record.nextAttemptAt ?? 'now'}): redeliver it once it has succeeded or failed`,
      );
    }
  }
  await ports.send({ eventId, attempt: 1, notBefore: now });
  return { event_id: eventId, queued: true };
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
  if (!(await ports.webhooks.accountExists(accountId))) throw new RedeliveryRefusedError(`Unknown account ${accountId}`);
  return (await ports.webhooks.allDeliveries(accountId)).filter((d) => status === undefined || d.status === status).map(operatorDeliveryView);
}
