import { dynamoWebhooks, webhookCompilers } from '../../shared/adapters/dynamo/webhooks';
import { commitChanges } from '../../shared/adapters/dynamo/changes';
import type { ChangeScope } from '../../shared/domain/changes';
import type { Db } from '../../shared/adapters/dynamo/dynamo';
import { operatorDeliveries, RedeliveryRefusedError, redeliverWebhook } from '../../shared/app/webhooks/redeliver-webhook';

export const DELIVERY_STATUSES: readonly string[] = ['pending', 'succeeded', 'failed'];

/** A refusal the operator can act on (exit 1): unknown event or account, a series still running. */
export { RedeliveryRefusedError as WebhookCommandError };

/** What the webhook commands need: the table (a redelivery reaches the webhook queue through the table's stream). */
export type WebhookPorts = { db: Db; table: string; now: () => Date };

/** The store the operator's commands read: they never open a signing secret. */
function store(ports: Pick<WebhookPorts, 'db' | 'table'>) {
  return dynamoWebhooks(ports.db, ports.table, () => Promise.reject(new Error('The operator commands never open a webhook secret')));
}

/** What the operator's redelivery may say (its table grants on AWS are the operator's own). */
const OPERATOR_SCOPE: ChangeScope = { id: 'OperatorCli', changes: ['webhook.redelivery_requested'] };

/**
 * `webhook redeliver --event evt_…` (shared/app/webhooks/redeliver-webhook.ts): the request committed to
 * the table, which the stream forwards to the webhook queue as attempt 1 of a new series.
 */
export async function redeliver(ports: Pick<WebhookPorts, 'db' | 'table' | 'now'>, eventId: string): Promise<{ event_id: string; queued: true }> {
  const { answer, changes } = await redeliverWebhook({ webhooks: store(ports), now: ports.now }, eventId);
  const keys = () => Promise.reject(new Error('A redelivery seals nothing'));
  await commitChanges(ports.db, { table: ports.table, keys, scope: OPERATOR_SCOPE }, changes, webhookCompilers);
  return answer;
}

/** `webhook deliveries --account A [--status S]`: every delivery of the account, newest first (GSI1), optionally of one status. */
export function deliveriesOf(ports: Pick<WebhookPorts, 'db' | 'table'>, accountId: string, status?: string) {
  return operatorDeliveries({ webhooks: store(ports) }, accountId, status);
}
