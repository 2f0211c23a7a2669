import type { Change, ChangeScope } from '../../domain/changes';
import { outboxWrite } from './outbox';
import type { Db } from './dynamo';
import { MoveAlreadyMade } from './state-move';
import { commitWrites, type TxWrite } from './transact';

/**
 * What compiling needs besides the changes: the table, the keys that seal personal data and webhook
 * secrets, and who commits (the route or worker): only the kinds its row names compile, since its table
 * grants derive from them (./access.ts); on AWS another kind's writes would be refused by IAM.
 */
export type CompileContext = { table: string; keys: () => Promise<{ personalData: Buffer; webhookSecrets: Buffer }>; scope: ChangeScope };

export type ChangeOf<K extends Change['kind']> = Extract<Change, { kind: K }>;

/**
 * How each kind of change becomes writes, room by room (each adapter exports its own): a route or a
 * worker hands over the compilers of the changes its use case may say, so a function bundles only
 * its own rooms' mappers.
 */
export type ChangeCompilers = { [K in Change['kind']]?: (context: CompileContext, change: ChangeOf<K>) => TxWrite[] | Promise<TxWrite[]> };

/**
 * Several rooms' compilers as one set. Call it as `/* @__PURE__ *\/ mergeCompilers(…)` at a module's top
 * level: a bundle that never uses the set then drops it and every compiler only it names (an object
 * spread would be kept: it might run getters).
 */
export function mergeCompilers(...sets: readonly ChangeCompilers[]): ChangeCompilers {
  return Object.assign({}, ...sets) as ChangeCompilers;
}

/** An outbox event: the item the webhook pipeline reads. */
export const eventCompilers: ChangeCompilers = {
  'event.recorded': (context, change) => [outboxWrite(context.table, change.accountId, change.event)],
};

/** A use case's changes as ONE transaction's writes, in their order; a kind without a compiler here is a programming error. */
export async function changeWrites(context: CompileContext, changes: readonly Change[], compilers: ChangeCompilers): Promise<TxWrite[]> {
  const allowed = context.scope.changes ?? [];
  const writes = await Promise.all(
    changes.map((change) => {
      if (!allowed.includes(change.kind)) {
        throw new Error(`${context.scope.id} said a ${change.kind} change its row does not name: add it to its changes (its table grants derive from them)`);
      }
      const compile = compilers[change.kind] as ((context: CompileContext, change: Change) => TxWrite[] | Promise<TxWrite[]>) | undefined;
      if (!compile) throw new Error(`No compiler for a ${change.kind} change here: hand its room's compilers to the route or worker`);
      return compile(context, change);
    }),
  );
  return writes.flat();
}

/** Commits changes in one transaction of their own (outside a route's idempotency record). */
export async function commitChanges(db: Db, context: CompileContext, changes: readonly Change[], compilers: ChangeCompilers): Promise<void> {
  await commitWrites(db, await changeWrites(context, changes, compilers));
}

/**
 * Commits the changes of a state move (a bank outcome) in one transaction. Returns false when the move's
 * from-status no longer held (a duplicate or concurrent outcome made it first): then nothing was written.
 */
export async function commitMove(db: Db, context: CompileContext, changes: readonly Change[], compilers: ChangeCompilers): Promise<boolean> {
  try {
    await commitWrites(db, await changeWrites(context, changes, compilers));
    return true;
  } catch (err) {
    if (err instanceof MoveAlreadyMade) return false;
    throw err;
  }
}
