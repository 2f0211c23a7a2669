import { dynamoCommitter, dynamoDeadlines, dynamoIdempotencyStore } from '../adapters/dynamo/request-store';
import type { Committer, IdempotencyStore, RequestDeadlines } from '../ports/commit';
import type { Runtime } from './runtime';

/** What the HTTP pipeline reaches storage through (issue 45): the Idempotency-Key's record and the one-transaction commit. */
export type HttpPorts = { idempotency: IdempotencyStore; committer: Committer };

const built = new WeakMap<Runtime, HttpPorts>();

/** The pipeline's ports over the runtime's table, built once per runtime (tests that swap the runtime get their own). */
export function httpPorts(runtime: Runtime): HttpPorts {
  const known = built.get(runtime);
  if (known) return known;
  let idempotency: IdempotencyStore | undefined;
  const ports: HttpPorts = {
    // Built on first use: a route without an Idempotency-Key (or a test's bare runtime) never reads its settings.
    get idempotency() {
      idempotency ??= dynamoIdempotencyStore(runtime.db, {
        table: runtime.config.tableName,
        lockSeconds: runtime.config.idempotency.lockSeconds,
        ttlSeconds: runtime.config.idempotency.ttlSeconds,
        answerKey: async () => (await runtime.serviceKeys()).idempotentAnswers,
      });
      return idempotency;
    },
    committer: dynamoCommitter(runtime.db),
  };
  built.set(runtime, ports);
  return ports;
}

/** The request deadline every storage call of a request gives up at. */
export const requestDeadlines: RequestDeadlines = dynamoDeadlines;
