import { type ChangeCompilers, changeWrites, type CompileContext } from '../adapters/dynamo/changes';
import type { Change, ChangeScope } from '../domain/changes';
import type { StoreWrite } from '../ports/commit';
import type { Runtime } from './runtime';

/**
 * The composition root (issue 32), one module per room so that a function bundles only its own ports:
 * shared/wiring/ builds the ports a use case reads and writes through from the runtime, over the
 * adapters. Functions and the HTTP pipeline take their ports here; app/ never imports an adapter.
 */

/** The runtime's table and the keys that seal what changes carry, for compiling the changes of a route or worker (`scope`: its row). */
export function compileContext(runtime: Runtime, scope: ChangeScope): CompileContext {
  return { table: runtime.config.tableName, keys: () => runtime.serviceKeys(), scope };
}

export type { ChangeCompilers };

/** A route's changes as the writes of its one transaction (the pipeline adds the idempotency record), by the route's compilers. */
export function compileChanges(runtime: Runtime, scope: ChangeScope, changes: readonly Change[], compilers: ChangeCompilers): Promise<StoreWrite[]> {
  return changeWrites(compileContext(runtime, scope), changes, compilers);
}
