import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { dynamoBalance } from '../adapters/dynamo/withdrawals';
import { panelCompilers } from '../adapters/dynamo/panel-people';
import type { PanelWithdrawalPorts } from '../app/panel/withdrawals';
import type { PanelInvoicePorts } from '../app/panel/invoices';
import type { PanelStatementPorts } from '../app/panel/statement';
import { dynamoEventReads } from '../adapters/dynamo/webhook-reads';
import { ledgerReader } from './ledger';
import { invoiceReader } from './lookups';
import { withdrawFeeCentsOf } from '../domain/withdrawal-fee';
import { newWithdrawReference } from '../platform/ids';
import type { Runtime } from './runtime';
import { panelSessionPorts } from './panel';
import { withdrawalChanges, withdrawalStore } from './withdrawals';

/** The merchant panel's money pages (functions/panel/money.ts): withdrawals, invoices, the statement. */

/** The withdrawals pages' ports: the session's, GET /api/pixout's store, POST /api/pixout/create's balance, fee and bank. */
export async function panelWithdrawalPorts(runtime: Runtime): Promise<PanelWithdrawalPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ...(await panelSessionPorts(runtime)),
    withdrawals: withdrawalStore(runtime),
    balance: dynamoBalance(runtime.db, runtime.config.tableName),
    feeCentsOf: async (accountId) => withdrawFeeCentsOf(await accounts.get(accountId)),
    bank: runtime.config.payouts.bank,
    newReference: newWithdrawReference,
  };
}

/** What a withdrawal asked in the panel commits: POST /api/pixout/create's changes and the audit entry, in one transaction. */
export const panelWithdrawalChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(withdrawalChanges, panelCompilers);

/** The invoices pages' ports: the session's, GET /api/invoices' reader, the events and deliveries an invoice names. */
export async function panelInvoicePorts(runtime: Runtime): Promise<PanelInvoicePorts> {
  return { ...(await panelSessionPorts(runtime)), invoices: invoiceReader(runtime), events: dynamoEventReads(runtime.db, runtime.config.tableName) };
}

/** The statement pages' ports: the session's and GET /api/balance/transactions' reader. */
export async function panelStatementPorts(runtime: Runtime): Promise<PanelStatementPorts> {
  return { ...(await panelSessionPorts(runtime)), ledger: ledgerReader(runtime) };
}
