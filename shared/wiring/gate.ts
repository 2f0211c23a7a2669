import type { RetryBudget } from '../adapters/dynamo/contention';
import { dynamoGate } from '../adapters/dynamo/gate';
import { onRateClock } from '../adapters/clocks/rate-clock';
import type { GatePorts } from '../app/auth/admit';
import type { Runtime } from './runtime';

/**
 * The gate of one call: the table's counters within the request's retry budget (on the local stack's
 * rate-limit test clock when it has one), the signing key, the configured limits, the runtime's clock.
 */
export function gatePorts(runtime: Runtime, budget?: RetryBudget): GatePorts {
  const store = dynamoGate(runtime.db, runtime.config.tableName, budget);
  const clockDir = runtime.config.localRateClockDir;
  return {
    store: clockDir === undefined ? store : onRateClock(store, clockDir),
    tokenSigningKey: async () => (await runtime.serviceKeys()).tokenSigning,
    limits: runtime.config.rateLimits,
    now: runtime.clock.now(),
  };
}
