import { ACCOUNT_INDEX_SHARDS, accountIdsPage } from '../adapters/dynamo/account-index';
import { type Reconciliation, reconcileAccount, UnknownAccountError } from '../adapters/dynamo/ledger-reconcile';
import type { Db } from '../adapters/dynamo/dynamo';

/**
 * The daily reconciliation, fanned out (issue 25): the scheduled start sends one message per partition
 * of the account index; each message reconciles one bounded page of accounts and, when its partition
 * has more, sends the next page's message carrying the cursor (its checkpoint). A run's time therefore
 * does not grow with the number of accounts: its steps do, each bounded, the partitions side by side.
 * At least once: a page handled twice reconciles its accounts twice (reads only).
 */
export type ReconcileMessage = { run: string; shard: number; cursor?: string };

/** The run's first messages: one per partition of the account index. */
export function firstMessages(run: string): ReconcileMessage[] {
  return Array.from({ length: ACCOUNT_INDEX_SHARDS }, (_, shard) => ({ run, shard }));
}

export type PageOutcome = { results: Reconciliation[]; next: ReconcileMessage | undefined };

/** Reconciles one page of at most `pageSize` accounts; the next page's message when the partition has more. */
export async function reconcilePage(db: Db, table: string, message: ReconcileMessage, pageSize: number): Promise<PageOutcome> {
  const page = await accountIdsPage(db, table, message.shard, message.cursor, pageSize);
  const results: Reconciliation[] = [];
  for (const accountId of page.accountIds) {
    try {
      results.push(await reconcileAccount(db, table, accountId));
    } catch (err) {
      // Indexed but gone (never deleted today): nothing to reconcile.
      if (!(err instanceof UnknownAccountError)) throw err;
    }
  }
  return { results, next: page.next === undefined ? undefined : { ...message, cursor: page.next } };
}

/** Whether a message body is a reconcile message (anything else in the queue is refused to its DLQ). */
export function isReconcileMessage(value: unknown): value is ReconcileMessage {
  const m = value as Partial<ReconcileMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.run === 'string' &&
    Number.isInteger(m.shard) &&
    Number(m.shard) >= 0 &&
    Number(m.shard) < ACCOUNT_INDEX_SHARDS &&
    (m.cursor === undefined || typeof m.cursor === 'string')
  );
}
