import type { RetryBudget } from '../adapters/dynamo/contention';
import { dynamoGate } from '../adapters/dynamo/gate';
import type { GatePorts } from '../app/auth/admit';
import type { Runtime } from './runtime';

/** The gate of one call: the table's counters within the request's retry budget, the signing key, the configured limits, the runtime's clock. */
export function gatePorts(runtime: Runtime, budget?: RetryBudget): GatePorts {
  return {
    store: dynamoGate(runtime.db, runtime.config.tableName, budget),
    tokenSigningKey: async () => (await runtime.serviceKeys()).tokenSigning,
    limits: runtime.config.rateLimits,
    now: runtime.clock.now(),
  };
}
