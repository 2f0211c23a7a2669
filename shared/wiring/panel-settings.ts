import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoAccountKeys } from '../adapters/dynamo/accounts';
import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { panelCompilers } from '../adapters/dynamo/panel-people';
import type { PanelKeysPorts } from '../app/panel/keys';
import type { PanelWebhookPorts } from '../app/panel/webhook-settings';
import type { Runtime } from '../runtime';
import { newWebhookSecret } from '../webhooks/config';
import { panelAccessPorts, panelInvitePorts } from './panel';
import { dynamoPanelTeam } from '../adapters/dynamo/panel-team';
import type { PanelTeamPorts } from '../app/panel/team';
import { webhookUrlCheck } from './webhook-url';
import { webhookChanges, webhookPorts } from './webhooks';
import { newEvent } from '../events/outbox';

/** The merchant panel's settings (functions/panel/settings.ts): the API keys, the webhook, the audit log, the team. */

/** The API keys page's ports: the access ports and the account's keys. */
export async function panelKeysPorts(runtime: Runtime): Promise<PanelKeysPorts> {
  return { ...(await panelAccessPorts(runtime)), keys: dynamoAccountKeys({ db: runtime.db, table: runtime.config.tableName, now: () => new Date() }) };
}

/** The webhook page's ports: the access ports, PUT /api/webhook's URL check and secrets, the account's webhook as configured. */
export async function panelWebhookPorts(runtime: Runtime): Promise<PanelWebhookPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  const { webhooks } = webhookPorts(runtime);
  return {
    ...(await panelAccessPorts(runtime)),
    checkUrl: webhookUrlCheck(runtime),
    newSecret: newWebhookSecret,
    webhookOf: async (accountId) => {
      const account = await accounts.get(accountId);
      return { ...(account?.webhookUrl ? { url: account.webhookUrl } : {}), secretConfigured: account?.webhookSecretConfigured === true };
    },
    deliveries: (accountId, limit) => webhooks.deliveries(accountId, limit),
    newEvent,
  };
}

/** What the panel's webhook forms commit: the webhook's changes and the audit entry, in one transaction. */
export const panelWebhookChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(webhookChanges, panelCompilers);

/** The team page's ports: the access ports, the account's team, the operator's invite use case's ports. */
export async function panelTeamPorts(runtime: Runtime): Promise<PanelTeamPorts> {
  const { db, config } = runtime;
  return {
    ...(await panelAccessPorts(runtime)),
    team: dynamoPanelTeam(db, config.tableName),
    invite: panelInvitePorts(db, config.tableName),
    publicBaseUrl: config.publicBaseUrl,
  };
}
