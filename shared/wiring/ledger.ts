import { dynamoLedgerReader } from '../adapters/dynamo/ledger-statement';
import type { LedgerReader } from '../ports/ledger';
import type { Runtime } from './runtime';

/** The ledger reads of the account routes, over the runtime's table. */
export function ledgerReader(runtime: Runtime): LedgerReader {
  return dynamoLedgerReader(runtime.db, runtime.config.tableName);
}
