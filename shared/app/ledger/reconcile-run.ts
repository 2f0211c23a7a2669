import type { Reconciliation } from '../../domain/reconciliation';
import type { ReconcileStore } from '../../ports/reconcile';

/**
 * The daily reconciliation, fanned out (issue 25): the scheduled start sends one message per partition
 * of the account index; each message reconciles one bounded page of accounts and, when its partition
 * has more, sends the next page's message carrying the cursor (its checkpoint). A run's time therefore
 * does not grow with the number of accounts: its steps do, each bounded, the partitions side by side.
 * At least once: a page handled twice reconciles its accounts twice (reads only).
 */
export type ReconcileMessage = { run: string; shard: number; cursor?: string };

/** The run's first messages: one per partition of the account index. */
export function firstMessages(store: Pick<ReconcileStore, 'partitions'>, run: string): ReconcileMessage[] {
  return Array.from({ length: store.partitions }, (_, shard) => ({ run, shard }));
}

export type PageOutcome = { results: Reconciliation[]; next: ReconcileMessage | undefined };

/** Reconciles one page of at most `pageSize` accounts; the next page's message when the partition has more. */
export async function reconcilePage(store: ReconcileStore, message: ReconcileMessage, pageSize: number): Promise<PageOutcome> {
  const page = await store.accountIds(message.shard, message.cursor, pageSize);
  const results: Reconciliation[] = [];
  for (const accountId of page.accountIds) {
    // Indexed but gone (never deleted today): nothing to reconcile.
    const result = await store.reconcile(accountId);
    if (result) results.push(result);
  }
  return { results, next: page.next === undefined ? undefined : { ...message, cursor: page.next } };
}

/** Whether a message body is a reconcile message (anything else in the queue is refused to its DLQ). */
export function isReconcileMessage(store: Pick<ReconcileStore, 'partitions'>, value: unknown): value is ReconcileMessage {
  const m = value as Partial<ReconcileMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.run === 'string' &&
    Number.isInteger(m.shard) &&
    Number(m.shard) >= 0 &&
    Number(m.shard) < store.partitions &&
    (m.cursor === undefined || typeof m.cursor === 'string')
  );
}
