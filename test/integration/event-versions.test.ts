import { describe, expect, it } from 'vitest';
import { latestVersions, type WebhookEvent } from '../../events/webhook-receiver';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { accountStore, bearer, call, newAccount, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { eventsAbout, eventually } from '../support/ledger';
import { notification, notify } from '../support/provider';

/**
 * A version on every object that moves (issue 29): 1 at creation, +1 at each state change, in the same
 * transaction; every event carries the version its change made and the status it left, so the example
 * receiver keeps the later state when two events arrive in reverse order.
 */

async function merchant() {
  const issued = await newAccount();
  return { accountId: issued.account_id, auth: bearer(await tokenFor(issued)) };
}

/** The account's events about one reference, once `count` of them are recorded. */
async function eventsOf(accountId: string, reference: string, count: number): Promise<WebhookEvent[]> {
  const events = await eventually(
    () => eventsAbout(accountId, reference),
    (found) => found.length >= count,
  );
  return events as unknown as WebhookEvent[];
}

const ofType = (events: WebhookEvent[], type: string) => events.find((event) => event.type === type);

describe('versions on invoices, withdraws and their events', () => {
  it('an invoice: 1 when created, 2 when paid, 3 when refunded; its events say so; delivered in reverse order the receiver keeps REFUNDED', async () => {
    const who = await merchant();
    const created = await createCharge('pix', who.auth, common());
    expect(created.status, created.text).toBe(200);
    const reference = String(created.invoice.reference);
    const read = async () =>
      (await call('GET', `/api/invoice/ref/${reference}`, { headers: who.auth })).json as { invoice: { status: string; version: number } };
    expect((await read()).invoice).toMatchObject({ status: 'PENDING', version: 1 });

    expect((await notify(notification('pix-paid', { txid: String(created.invoice.txid) }))).json).toEqual({ received: true, applied: true });
    expect((await notify(notification('refund', { reference }))).json).toEqual({ received: true, applied: true });
    expect((await read()).invoice).toMatchObject({ status: 'REFUNDED', version: 3 });

    const events = await eventsOf(who.accountId, reference, 2);
    const paid = ofType(events, 'invoice.paid');
    const refunded = ofType(events, 'invoice.refunded');
    expect(paid?.data.invoice).toMatchObject({ status: 'PAID', version: 2, previous_status: 'PENDING' });
    expect(refunded?.data.invoice).toMatchObject({ status: 'REFUNDED', version: 3, previous_status: 'PAID' });

    // Delivered in reverse order (a retried invoice.paid after invoice.refunded): the example receiver keeps the later state.
    const versions = latestVersions();
    const state = new Map<string, unknown>();
    for (const event of [refunded, paid]) {
      if (event && versions.isNewer(event)) state.set(reference, (event.data.invoice as { status: string }).status);
    }
    expect(state.get(reference)).toBe('REFUNDED');
  });

  it('a duplicate or late notification raises nothing: the version moves only with the status', async () => {
    const who = await merchant();
    const created = await createCharge('pix', who.auth, common());
    const txid = String(created.invoice.txid);
    expect((await notify(notification('pix-paid', { txid }))).json).toEqual({ received: true, applied: true });
    expect((await notify(notification('pix-paid', { txid }))).json).toEqual({ received: true, applied: false });
    const view = (await call('GET', `/api/invoice/ref/${String(created.invoice.reference)}`, { headers: who.auth })).json as { invoice: { version: number } };
    expect(view.invoice.version).toBe(2);
  });

  it('a withdraw: 1 when reserved, 2 when the bank pays it; pixout.paid carries 2 and PENDING', async () => {
    const who = await merchant();
    await creditAccount(accountStore(), who.accountId, 10_000);
    const reply = await call('POST', '/api/pixout/create', {
      headers: { ...who.auth, 'idempotency-key': `versions-${Date.now()}` },
      body: { amount: 12.5, pixkey: 'maria@example.com', keytype: 'EMAIL' },
    });
    expect(reply.status, reply.text).toBe(200);
    const reference = (reply.json as { withdraw: { reference: string; version: number } }).withdraw.reference;
    expect((reply.json as { withdraw: { version: number } }).withdraw.version).toBe(1);
    expect((await notify(notification('withdraw-paid', { reference }))).json).toEqual({ received: true, applied: true });
    const [event] = await eventsOf(who.accountId, reference, 1);
    expect(event?.data.withdraw).toMatchObject({ status: 'PAID', version: 2, previous_status: 'PENDING' });
    const read = await call('GET', `/api/pixout/withdraw/${reference}`, { headers: who.auth });
    expect(read.json).toMatchObject({ withdraw: { status: 'PAID', version: 2 } });
  });
});
