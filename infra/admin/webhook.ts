import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { dynamoWebhooks } from '../../shared/adapters/dynamo/webhooks';
import type { Db } from '../../shared/adapters/dynamo/dynamo';
import { operatorDeliveries, RedeliveryRefusedError, redeliverWebhook } from '../../shared/app/webhooks/redeliver-webhook';

export const DELIVERY_STATUSES: readonly string[] = ['pending', 'succeeded', 'failed'];

/** A refusal the operator can act on (exit 1): unknown event or account, a series still running. */
export { RedeliveryRefusedError as WebhookCommandError };

/** What the webhook commands need: the table, SQS and the webhook queue. */
export type WebhookPorts = { db: Db; table: string; sqs: SQSClient; webhooks: string; now: () => Date };

/** The store the operator's commands read: they never open a signing secret. */
function store(ports: Pick<WebhookPorts, 'db' | 'table'>) {
  return dynamoWebhooks(ports.db, ports.table, () => Promise.reject(new Error('The operator commands never open a webhook secret')));
}

/** `webhook redeliver --event evt_…` (shared/app/webhooks/redeliver-webhook.ts): attempt 1 of a new series to the webhook queue. */
export function redeliver(ports: WebhookPorts, eventId: string): Promise<{ event_id: string; queued: true }> {
  const send = async (message: object) => {
    if (!ports.webhooks) throw new Error('The webhook queue URL is not known');
    await ports.sqs.send(new SendMessageCommand({ QueueUrl: ports.webhooks, MessageBody: JSON.stringify(message) }));
  };
  return redeliverWebhook({ webhooks: store(ports), send, now: ports.now }, eventId);
}

/** `webhook deliveries --account A [--status S]`: every delivery of the account, newest first (GSI1), optionally of one status. */
export function deliveriesOf(ports: Pick<WebhookPorts, 'db' | 'table'>, accountId: string, status?: string) {
  return operatorDeliveries({ webhooks: store(ports) }, accountId, status);
}
