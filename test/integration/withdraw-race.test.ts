import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { handler as getBalance } from '../../functions/account/balance';
import { handler as createWithdraw } from '../../functions/pixout/create';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardBody, common, createCharge } from '../support/charges';
import { notification, notify } from '../support/provider';
import { invoke } from '../support/invoke';
import { balanceShards, listedItems, scanAll, storedBalanceCents } from '../support/ledger';

/** The available balance as stored: the sum of the account's shards. */
function balanceCents(accountId: string): Promise<number> {
  return storedBalanceCents(accountId);
}

describe('withdrawals under concurrency and failure (in-process handlers, the real local table)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
    // This file's process only: 200 calls of one account within a minute.
    process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = '100000';
  });

  it('200 concurrent creations against a balance covering exactly 50, 5 rounds: exactly 50 succeed, the rest 400 (or 503 then retried), never a 500, the balance exact and never negative', async () => {
    const counted = { created: 0, refused: 0, busy: 0, other: 0 };
    for (let round = 0; round < 5; round += 1) {
      const account = await newAccount(undefined, 25);
      await creditAccount(accountStore(), account.account_id, 50 * (1000 + 25));
      const auth = bearer(await tokenFor(account));
      // A busy account has its rate-limit minute open already: open it, so the race measures the balance.
      expect((await invoke(getBalance, routes.balance, { headers: auth })).status).toBe(200);
      let reading = true;
      const seen: number[] = [];
      /** The lowest single balance shard seen during the race (issue 13: a withdrawal never takes a shard below zero). */
      let lowestShard = 0;
      const sampler = (async () => {
        while (reading) {
          const shards = await balanceShards(account.account_id);
          lowestShard = Math.min(lowestShard, ...shards);
          seen.push(shards.reduce((sum, cents) => sum + cents, 0));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      // Each client retries a 503 with the same key, as the error asks: Retry-After, then exponential backoff with full jitter;
      // and a 409 idempotency_in_progress the same way (the OpenAPI document's rule: the first call with the key still runs,
      // as when a 503 answered at the request's deadline while its work went on).
      const finals = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const key = `race-${randomUUID()}`;
          for (let attempt = 1; ; attempt += 1) {
            const reply = await invoke(createWithdraw, routes.createWithdraw, {
              headers: { ...auth, 'idempotency-key': key },
              body: { amount: 10, pixkey: 'race@example.com', keytype: 'EMAIL' },
            });
            const inProgress = reply.status === 409 && (reply.json as { code?: string } | undefined)?.code === 'idempotency_in_progress';
            if ((reply.status !== 503 && !inProgress) || attempt >= 40) return reply;
            counted.busy += 1;
            if (!inProgress) {
              expect(reply.json).toMatchObject({ code: 'temporary_conflict', error: expect.any(String) });
              expect(Number(reply.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
            }
            const ceiling = Math.min(16_000, Number(reply.headers['Retry-After'] ?? 1) * 1000 * 2 ** (attempt - 1));
            await new Promise((resolve) => setTimeout(resolve, ceiling * Math.random()));
          }
        }),
      );
      reading = false;
      await sampler;
      const statuses = finals.map((r) => r.status);
      counted.created += statuses.filter((s) => s === 200).length;
      counted.refused += statuses.filter((s) => s === 400).length;
      counted.other += statuses.filter((s) => s !== 200 && s !== 400).length;
      expect(statuses.filter((s) => s === 500)).toHaveLength(0);
      expect(statuses.filter((s) => s === 200)).toHaveLength(50);
      expect(statuses.filter((s) => s === 400)).toHaveLength(150);
      for (const reply of finals.filter((r) => r.status === 400)) expect(reply.json).toMatchObject({ code: 'insufficient_balance' });
      expect(await balanceCents(account.account_id)).toBe(0);
      expect(seen.length).toBeGreaterThan(0);
      expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
      expect(lowestShard).toBeGreaterThanOrEqual(0);
      expect(Math.min(...(await balanceShards(account.account_id)))).toBe(0);
      const items = await listedItems(keys.withdrawListPartition(account.account_id));
      expect(items).toHaveLength(50);
      const answered = new Set(finals.filter((r) => r.status === 200).map((r) => (r.json as { withdraw: { reference: string } }).withdraw.reference));
      expect(new Set(items.map((item) => String(item.reference)))).toEqual(answered);
    }
    // The figures of the 5 rounds (the closing note quotes them); only the guarantee is asserted.
    console.info(`withdraw race, 5 rounds × 200: ${JSON.stringify(counted)}`);
    expect(counted.created).toBe(250);
  }, 400_000);

  it('a crash after the commit and before the answer: the retry with the same key returns the same withdraw, no second reservation', async () => {
    const account = await newAccount();
    await creditAccount(accountStore(), account.account_id, 10_000);
    const auth = bearer(await tokenFor(account));
    const key = `crash-${randomUUID()}`;
    const body = { amount: 40, pixkey: 'crash@example.com', keytype: 'EMAIL' };
    const runtime = getRuntime();
    overrideRuntime({
      faults: {
        afterCommit: () => {
          throw new Error('injected crash after the commit');
        },
      },
    });
    const crashed = await invoke(createWithdraw, routes.createWithdraw, { headers: { ...auth, 'idempotency-key': key }, body });
    overrideRuntime({ ...runtime, faults: undefined });
    expect(crashed.status).toBe(500);
    expect(await balanceCents(account.account_id)).toBe(6_000);
    const retried = await invoke(createWithdraw, routes.createWithdraw, { headers: { ...auth, 'idempotency-key': key }, body });
    expect(retried.status).toBe(200);
    expect(retried.headers['Idempotent-Replayed']).toBe('true');
    expect(await balanceCents(account.account_id)).toBe(6_000);
    const items = await listedItems(keys.withdrawListPartition(account.account_id));
    expect(items).toHaveLength(1);
    expect((retried.json as { withdraw: { reference: string } }).withdraw.reference).toBe(items[0]?.reference);
  });

  it('conserves money to the cent after a mixed run: credits − paid out − reserved = balance = the sum of the ledger entries', async () => {
    const account = await newAccount(undefined, 37);
    const accountId = account.account_id;
    const auth = bearer(await tokenFor(account));
    await creditAccount(accountStore(), accountId, 12_345);
    const pix = await createCharge('pix', auth, common({ amount: 77.77, quantity: 3, tax: 1.5, discount: 2.25 }));
    await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }));
    const card = await createCharge('creditcard', auth, cardBody({ amount: 19.99, quantity: 2 }));
    expect(card.status).toBe(200);
    const made: string[] = [];
    for (const amount of [10.01, 20.02, 30.03, 40.04, 5.55]) {
      const reply = await invoke(createWithdraw, routes.createWithdraw, {
        headers: { ...auth, 'idempotency-key': `mix-${randomUUID()}` },
        body: { amount, pixkey: 'mix@example.com', keytype: 'EMAIL' },
      });
      expect(reply.status).toBe(200);
      made.push((reply.json as { withdraw: { reference: string } }).withdraw.reference);
    }
    await notify(notification('withdraw-paid', { reference: made[0] ?? '' }));
    await notify(notification('withdraw-refused', { reference: made[1] ?? '' }));
    await notify(notification('withdraw-paid', { reference: made[2] ?? '' }));
    await notify(notification('withdraw-refused', { reference: made[2] ?? '' }));

    const all = { Items: await scanAll({ FilterExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId } }) };
    let credits = 0;
    let paidOut = 0;
    let reserved = 0;
    let ledgerSum = 0;
    for (const item of all.Items ?? []) {
      if (item.type === 'ledger') ledgerSum += Number(item.amountCents);
      if (item.type === 'ledger' && item.entryType === 'adjustment') credits += Number(item.amountCents);
      if (item.type === 'invoice' && (item.status === 'PAID' || item.status === 'REFUNDED'))
        credits += Number(item.totalCents) * (item.status === 'PAID' ? 1 : 0);
      if (item.type === 'withdraw' && item.status === 'PAID') paidOut += Number(item.amountCents) + Number(item.feeCents);
      if (item.type === 'withdraw' && item.status === 'PENDING') reserved += Number(item.amountCents) + Number(item.feeCents);
    }
    // 233.31 × (1 + 1.5% − 2.25%) = 231.560… → 231.56; 39.98 × (1 + 5% − 10%) = 37.981 → 37.98
    expect([pix.invoice.total, card.invoice.total]).toEqual(['231.56', '37.98']);
    expect(credits).toBe(12_345 + 23_156 + 3_798);
    expect(credits - paidOut - reserved).toBe(await balanceCents(accountId));
    // The ledger tells the same story, entry by entry (issue 11).
    expect(ledgerSum).toBe(await balanceCents(accountId));
  });
});
