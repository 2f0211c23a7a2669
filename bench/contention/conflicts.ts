import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../shared/adapters/dynamo/dynamo';
import { tallyAttempt } from './analysis';
import type { WriteAttempts } from './types';

/**
 * Counts the write attempts the handlers send, on the client they use (getDb()): a middleware at
 * `deserialize` runs inside the SDK's retry loop, so it sees every HTTP attempt, including each retry
 * shared/adapters/dynamo/contention.ts's retryTransient makes after a TransactionConflict (that module keeps
 * no counter; its only log line is the final "contention budget spent" before a 503). Attempts are
 * charged to the run through AsyncLocalStorage, so the local stack's background pollers are not counted.
 */
const scope = new AsyncLocalStorage<WriteAttempts>();
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const NAME = 'benchContentionAttempts';

/** Runs fn with the write attempts of the DynamoDB calls it makes tallied into `attempts`. */
export function countWritesInto<T>(attempts: WriteAttempts, fn: () => Promise<T>): Promise<T> {
  return scope.run(attempts, fn);
}

/** Attaches the counting middleware to a client once. */
export function attachWriteAttemptCounter(db: Db): void {
  if (db.middlewareStack.identify().some((name) => name.startsWith(NAME))) return;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const attempts = scope.getStore();
      const operation = (context.commandName ?? '').replace(/Command$/, '');
      if (!attempts || !WRITES.has(operation)) return next(args);
      try {
        const result = await next(args);
        tallyAttempt(attempts, operation);
        return result;
      } catch (err) {
        tallyAttempt(attempts, operation, err);
        throw err;
      }
    },
    { step: 'deserialize', name: NAME, priority: 'high' },
  );
}
