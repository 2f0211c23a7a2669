import { accountCompilers, dynamoAccountKeys } from '../adapters/dynamo/accounts';
import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { panelCompilers } from '../adapters/dynamo/panel-people';
import { checkoutSigningSecret } from '../domain/checkout-signing';
import type { PanelCheckoutPorts } from '../app/panel/checkout-settings';
import type { PanelKeysPorts } from '../app/panel/keys';
import type { Runtime } from './runtime';
import { panelInvitePorts } from './panel';
import { panelAccessPorts } from './panel-access';
import { dynamoPanelTeam } from '../adapters/dynamo/panel-team';
import type { PanelTeamPorts } from '../app/panel/team';
import { dynamoMailSuppressions } from '../adapters/dynamo/mail-suppressions';
import { dynamoMailOutcomes } from '../adapters/dynamo/mail-outbox';

/** The merchant panel's settings (functions/panel/settings.ts): the API keys, the audit log, the team. */

/** The API keys page's ports: the access ports and the account's keys. */
export async function panelKeysPorts(runtime: Runtime): Promise<PanelKeysPorts> {
  return { ...(await panelAccessPorts(runtime)), keys: dynamoAccountKeys({ db: runtime.db, table: runtime.config.tableName, now: () => new Date() }) };
}

/** The hosted checkout page's ports: the access ports, the account's signing settings, the secret of a version (derived from the service keys). */
export async function panelCheckoutPorts(runtime: Runtime): Promise<PanelCheckoutPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ...(await panelAccessPorts(runtime)),
    checkoutSigningOf: async (accountId) => (await accounts.get(accountId))?.checkoutSigning ?? { required: false, version: 0 },
    signingSecret: async (accountId, version) => checkoutSigningSecret((await runtime.serviceKeys()).checkoutSigning, accountId, version),
  };
}

/** What the hosted checkout form commits: the signing settings and the audit entry, in one transaction. */
export const panelCheckoutChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(accountCompilers, panelCompilers);

/** The team page's ports: the access ports, the account's team, the operator's invite use case's ports. */
export async function panelTeamPorts(runtime: Runtime): Promise<PanelTeamPorts> {
  const { db, config } = runtime;
  return {
    ...(await panelAccessPorts(runtime)),
    team: dynamoPanelTeam(db, config.tableName),
    invite: panelInvitePorts(db, config.tableName, async () => (await runtime.serviceKeys()).mail),
    publicBaseUrl: config.publicBaseUrl,
    mailSuppressions: dynamoMailSuppressions(db, config.tableName),
    mailOutcomes: dynamoMailOutcomes(db, config.tableName),
  };
}
