import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { panelCompilers } from '../adapters/dynamo/panel-people';
import type { PanelWebhookPorts } from '../app/panel/webhook-settings';
import { newEvent } from '../platform/outbox-event';
import type { Runtime } from './runtime';
import { newWebhookSecret } from '../platform/webhook-secret';
import { panelAccessPorts } from './panel-access';
import { webhookUrlCheck } from './webhook-url';
import { webhookChanges, webhookPorts } from './webhooks';

/** The merchant panel's webhook (functions/panel/webhooks.ts). */

/** The webhook page's ports: the access ports, PUT /api/webhook's URL check and secrets, the account's webhook as configured. */
export async function panelWebhookPorts(runtime: Runtime): Promise<PanelWebhookPorts> {
  const { webhooks } = webhookPorts(runtime);
  return {
    ...(await panelAccessPorts(runtime)),
    checkUrl: webhookUrlCheck(runtime),
    newSecret: newWebhookSecret,
    webhookOf: async (accountId) => {
      const settings = await webhooks.settings(accountId);
      return {
        ...(settings.url ? { url: settings.url } : {}),
        secretConfigured: settings.secretConfigured,
        ...(settings.events ? { events: settings.events } : {}),
      };
    },
    deliveries: (accountId, limit) => webhooks.deliveries(accountId, limit),
    newEvent,
    webhooks,
    now: () => new Date(),
  };
}

/** What the panel's webhook forms commit: the webhook's changes and the audit entry, in one transaction. */
export const panelWebhookChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(webhookChanges, panelCompilers);
