import { dynamoAccountKeys } from '../adapters/dynamo/accounts';
import type { PanelKeysPorts } from '../app/panel/keys';
import type { Runtime } from '../runtime';
import { panelAccessPorts, panelInvitePorts } from './panel';
import { dynamoPanelTeam } from '../adapters/dynamo/panel-team';
import type { PanelTeamPorts } from '../app/panel/team';

/** The merchant panel's settings (functions/panel/settings.ts): the API keys, the audit log, the team. */

/** The API keys page's ports: the access ports and the account's keys. */
export async function panelKeysPorts(runtime: Runtime): Promise<PanelKeysPorts> {
  return { ...(await panelAccessPorts(runtime)), keys: dynamoAccountKeys({ db: runtime.db, table: runtime.config.tableName, now: () => new Date() }) };
}

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
