import { describe, expect, it } from 'vitest';
import { firstMessages, isReconcileMessage, reconcilePage } from '../../../../shared/app/ledger/reconcile-run';
import type { Reconciliation } from '../../../../shared/domain/reconciliation';
import type { ReconcileStore } from '../../../../shared/ports/reconcile';

const result = (accountId: string) => ({ account_id: accountId, ok: true }) as unknown as Reconciliation;

/** A store of 5 accounts in partition 0 (one of them gone), paged by index; 2 partitions. */
function store(): ReconcileStore & { asked: string[] } {
  const ids = ['acct_a', 'acct_b', 'acct_gone', 'acct_c', 'acct_d'];
  const asked: string[] = [];
  return {
    asked,
    partitions: 2,
    accountIds: async (partition, cursor, limit) => {
      if (partition !== 0) return { accountIds: [], next: undefined };
      const from = cursor === undefined ? 0 : Number(cursor);
      const next = from + limit < ids.length ? String(from + limit) : undefined;
      return { accountIds: ids.slice(from, from + limit), next };
    },
    reconcile: async (accountId) => {
      asked.push(accountId);
      return accountId === 'acct_gone' ? undefined : result(accountId);
    },
  };
}

describe('the daily reconciliation, a page at a time (use case)', () => {
  it('one first message per partition; each page reconciles its accounts and names the next page, skipping a gone account', async () => {
    const run = store();
    expect(firstMessages(run, 'r1')).toEqual([
      { run: 'r1', shard: 0 },
      { run: 'r1', shard: 1 },
    ]);
    const first = await reconcilePage(run, { run: 'r1', shard: 0 }, 3);
    expect(first.results.map((r) => r.account_id)).toEqual(['acct_a', 'acct_b']);
    expect(first.next).toEqual({ run: 'r1', shard: 0, cursor: '3' });
    const second = await reconcilePage(run, first.next ?? { run: '', shard: 0 }, 3);
    expect(second.results.map((r) => r.account_id)).toEqual(['acct_c', 'acct_d']);
    expect(second.next).toBeUndefined();
    expect(run.asked).toEqual(['acct_a', 'acct_b', 'acct_gone', 'acct_c', 'acct_d']);
  });

  it('takes only well-formed messages of a partition that exists', () => {
    const run = store();
    expect(isReconcileMessage(run, { run: 'r', shard: 1, cursor: 'x' })).toBe(true);
    for (const bad of [{ run: 'r', shard: 2 }, { run: 'r', shard: -1 }, { run: 'r', shard: 0.5 }, { shard: 0 }, { run: 'r', shard: 0, cursor: 1 }, null, 'x']) {
      expect(isReconcileMessage(run, bad)).toBe(false);
    }
  });
});
