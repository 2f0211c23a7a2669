import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createPix } from '../../functions/charges/pix';
import { routes } from '../../shared/http/routes';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common } from '../support/charges';
import { invoke } from '../support/invoke';
import { outboxEventsOf, storedBalanceCents } from '../support/ledger';
import { notification, notifyUntilSettled } from '../support/provider';

/** Runs `task` over `items`, at most `width` at a time. */
async function inBatches<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return out;
}

describe('provider notifications under contention on one balance (the real local stack)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
    // This file's process only: 200 creations of one account within a minute.
    process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = '100000';
  });

  it('200 concurrent pix.paid for 200 invoices of ONE account: each credited exactly once, none lost, balance = sum of totals', async () => {
    const account = await newAccount(['pix']);
    const auth = bearer(await tokenFor(account));
    const amounts = Array.from({ length: 200 }, (_, i) => (100 + i) / 100);
    const invoices = await inBatches(amounts, 10, async (amount) => {
      const reply = await invoke(createPix, routes.createPix, { headers: auth, body: common({ amount, quantity: 1, tax: 0, discount: 0 }) });
      expect(reply.status).toBe(200);
      return (reply.json as { invoice: { reference: string; txid: string; total: string } }).invoice;
    });
    const expectedCents = invoices.reduce((sum, invoice) => sum + Math.round(Number(invoice.total) * 100), 0);

    // All at once, each retried on 503 as a provider would.
    const answers = await Promise.all(invoices.map((invoice) => notifyUntilSettled(notification('pix-paid', { txid: invoice.txid }))));
    const all = answers.flat();
    const finals = answers.map((seen) => seen.at(-1));
    expect(all.filter((r) => r.status === 500)).toHaveLength(0);
    for (const reply of all.filter((r) => r.status === 503)) expect(reply.json).toMatchObject({ code: 'temporary_conflict', error: expect.any(String) });
    expect(finals.map((r) => r?.status)).toEqual(invoices.map(() => 200));
    console.info(`notification race: 200 invoices, ${all.length} answers, ${all.filter((r) => r.status === 503).length} × 503 retried`);

    const store = accountStore();
    const read = (reference: string) => store.db.send(new GetCommand({ TableName: store.table, Key: keys.invoice(reference), ConsistentRead: true }));
    const items = await inBatches(invoices, 20, async (invoice) => (await read(invoice.reference)).Item);
    expect(items.map((item) => item?.status)).toEqual(invoices.map(() => 'PAID'));
    expect(await storedBalanceCents(account.account_id)).toBe(expectedCents);
    const paidEvents = (await outboxEventsOf(account.account_id)).filter((event) => event.type === 'invoice.paid');
    expect(paidEvents).toHaveLength(200);
    expect(new Set(paidEvents.map((event) => event.data.invoice?.reference))).toEqual(new Set(invoices.map((invoice) => invoice.reference)));
  }, 240_000);
});
