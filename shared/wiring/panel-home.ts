import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoPanelPeople } from '../adapters/dynamo/panel-people';
import type { AccountPagesPorts } from '../app/panel/account-pages';
import type { OverviewPorts } from '../app/panel/overview';
import type { Runtime } from './runtime';
import { customerPorts } from './customers';
import { ledgerReader } from './ledger';
import { panelAccessPorts } from './panel-access';

/** The merchant panel's reading pages (functions/panel/home.ts): the overview, the customers, the payment methods. */

/** The overview's ports: the ledger as GET /api/balance reads it, the account's name, the people. */
export function panelOverviewPorts(runtime: Runtime): OverviewPorts {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ledger: ledgerReader(runtime),
    accountName: async (accountId) => (await accounts.get(accountId))?.name,
    people: dynamoPanelPeople(runtime.db, runtime.config.tableName),
  };
}

/** The customers and payment methods pages' ports: the session's, GET /api/customers' store, the account's methods. */
export async function panelAccountPorts(runtime: Runtime): Promise<AccountPagesPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ...(await panelAccessPorts(runtime)),
    ...customerPorts(runtime),
    methodsOf: async (accountId) => (await accounts.get(accountId))?.methods ?? [],
  };
}
