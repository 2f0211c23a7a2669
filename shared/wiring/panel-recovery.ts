import type { Db } from '../adapters/dynamo/dynamo';
import { dynamoPanelAuditLog, dynamoPanelPeople } from '../adapters/dynamo/panel-people';
import { dynamoAttemptSlots } from '../adapters/dynamo/attempt-slots';
import { dynamoPanelResets } from '../adapters/dynamo/panel-resets';
import type { RecoveryPorts, ResetRequestPorts } from '../app/panel/password-reset';
import { randomString } from '../platform/ids';
import type { Runtime } from './runtime';
import { newPanelToken, tokenHash } from './panel';
import { panelPasswordPorts } from './panel-password';

/** The merchant panel's password recovery (functions/panel/recovery.ts): the access ports, the reset links, the public base URL. */
export async function panelRecoveryPorts(runtime: Runtime): Promise<RecoveryPorts> {
  const { db, config } = runtime;
  return {
    ...(await panelPasswordPorts(runtime)),
    resets: dynamoPanelResets(db, config.tableName, async () => (await runtime.serviceKeys()).mail),
    publicBaseUrl: config.publicBaseUrl,
  };
}

/** What the operator's `panel reset` needs over the table: the people, the links (mailed), the audit log. */
export function panelResetPorts(db: Db, table: string, mailKey: () => Promise<Buffer>, publicBaseUrl: string): ResetRequestPorts {
  return {
    people: dynamoPanelPeople(db, table),
    attempts: dynamoAttemptSlots(db, table),
    tokens: { newToken: newPanelToken, hash: tokenHash },
    newId: (prefix) => `${prefix}_${randomString(24)}`,
    resets: dynamoPanelResets(db, table, mailKey),
    audit: dynamoPanelAuditLog(db, table),
    publicBaseUrl,
  };
}
