import { type ChangeCompilers, eventCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { dynamoWebhooks, webhookCompilers } from '../adapters/dynamo/webhooks';
import { newEvent } from '../platform/outbox-event';
import type { WebhookStore } from '../ports/webhooks';
import type { Runtime } from './runtime';

/** The changes of the webhooks' use cases: the URL and secret, and the test event. */
export const webhookChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(webhookCompilers, eventCompilers);

/** The webhook store over the runtime's table. */
export function webhookPorts(runtime: Runtime): { webhooks: WebhookStore; newEvent: typeof newEvent } {
  return { webhooks: dynamoWebhooks(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).webhookSecrets), newEvent };
}
