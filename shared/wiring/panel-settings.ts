import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoAccountKeys } from '../adapters/dynamo/accounts';
import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { panelCompilers } from '../adapters/dynamo/panel-people';
import type { PanelKeysPorts } from '../app/panel/keys';
import type { PanelWebhookPorts } from '../app/panel/webhook-settings';
import type { Runtime } from '../runtime';
import { newWebhookSecret } from '../webhooks/config';
import { panelAccessPorts } from './panel';
import { webhookUrlCheck } from './webhook-url';
import { webhookChanges } from './webhooks';

/** The merchant panel's settings (functions/panel/settings.ts): the API keys, the webhook, the audit log. */

/** The API keys page's ports: the access ports and the account's keys. */
export async function panelKeysPorts(runtime: Runtime): Promise<PanelKeysPorts> {
  return { ...(await panelAccessPorts(runtime)), keys: dynamoAccountKeys({ db: runtime.db, table: runtime.config.tableName, now: () => new Date() }) };
}

/** The webhook page's ports: the access ports, PUT /api/webhook's URL check and secrets, the account's webhook as configured. */
export async function panelWebhookPorts(runtime: Runtime): Promise<PanelWebhookPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ...(await panelAccessPorts(runtime)),
    checkUrl: webhookUrlCheck(runtime),
    newSecret: newWebhookSecret,
    webhookOf: async (accountId) => {
      const account = await accounts.get(accountId);
      return { ...(account?.webhookUrl ? { url: account.webhookUrl } : {}), secretConfigured: account?.webhookSecretConfigured === true };
    },
  };
}

/** What the panel's webhook forms commit: the webhook's changes and the audit entry, in one transaction. */
export const panelWebhookChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(webhookChanges, panelCompilers);
