import { dynamoReconcileStore } from '../adapters/dynamo/ledger-reconcile';
import type { ReconcileStore } from '../ports/reconcile';
import type { Runtime } from './runtime';

/** The daily reconciliation's reads over the runtime's table. */
export function reconcileStore(runtime: Runtime): ReconcileStore {
  return dynamoReconcileStore(runtime.db, runtime.config.tableName);
}
