import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import type { PasswordSettingPorts } from '../app/panel/access-ports';
import type { Runtime } from './runtime';
import { panelAccessPorts } from './panel-access';

/**
 * The ports of the use cases that set a password (enrollment, a new password, a reset): the access
 * ports and the accounts' names the password policy reads. A module of its own: only the functions
 * that set a password (the door, the recovery) bundle the account reader for it.
 */
export async function panelPasswordPorts(runtime: Runtime): Promise<PasswordSettingPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return { ...(await panelAccessPorts(runtime)), accountNames: { nameOf: async (accountId) => (await accounts.get(accountId))?.name } };
}
