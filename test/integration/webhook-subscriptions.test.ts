import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../shared/domain/webhooks';
import { bearer, call, newAccount, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { eventsAbout, eventually } from '../support/ledger';
import { notification, notify } from '../support/provider';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * Subscriptions (issue 29): PUT /api/webhook's `events` names the types to receive; an event of another
 * type is recorded (the outbox keeps it) but never delivered; GET /api/webhook says what is subscribed.
 */

let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver('127.0.0.16');
});

afterAll(async () => {
  await receiver?.close();
});

describe('webhook subscriptions', () => {
  it('PUT with events subscribes to those types only; GET says so; an unknown type is a 422 on events; a PUT without events subscribes to every type again', async () => {
    const auth = bearer(await tokenFor(await newAccount()));
    const refused = await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url, events: ['invoice.paid', 'invoice.exploded'] } });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ error: { events: [expect.stringContaining('invoice.exploded')] } });
    const set = await call('PUT', '/api/webhook', {
      headers: auth,
      body: { url: receiver.url, events: ['pixout.paid', 'invoice.canceled', 'invoice.canceled'] },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({ webhook: { events: ['invoice.canceled', 'pixout.paid'] } });
    expect((await call('GET', '/api/webhook', { headers: auth })).json).toMatchObject({ webhook: { events: ['invoice.canceled', 'pixout.paid'] } });
    const again = await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url } });
    expect(again.status).toBe(200);
    expect((await call('GET', '/api/webhook', { headers: auth })).json).toMatchObject({ webhook: { events: [...WEBHOOK_EVENT_TYPES] } });
  });

  it('an unsubscribed type is recorded but not delivered; a subscribed one is delivered', async () => {
    const issued = await newAccount();
    const auth = bearer(await tokenFor(issued));
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url, events: ['invoice.canceled'] } })).status).toBe(200);
    const paid = await createCharge('pix', auth, common());
    const canceled = await createCharge('pix', auth, common());
    expect((await notify(notification('pix-paid', { txid: String(paid.invoice.txid) }))).json).toMatchObject({ applied: true });
    expect((await notify(notification('cancel', { reference: String(canceled.invoice.reference) }))).json).toMatchObject({ applied: true });
    // Both events are recorded.
    const paidEvents = await eventually(
      () => eventsAbout(issued.account_id, String(paid.invoice.reference)),
      (found) => found.length === 1,
    );
    expect(paidEvents.map((event) => event.type)).toEqual(['invoice.paid']);
    // Only the subscribed one reaches the receiver (and the delivery log).
    const mine = () => receiver.received.map((got) => JSON.parse(got.body) as { type: string; data: { invoice?: { reference?: string } } });
    const delivered = await eventually(mine, (list) => list.some((event) => event.data.invoice?.reference === canceled.invoice.reference), 30_000);
    expect(delivered.filter((event) => event.data.invoice?.reference === paid.invoice.reference)).toEqual([]);
    const log = await eventually(
      async () => ((await call('GET', '/api/webhook/deliveries', { headers: auth })).json as { deliveries: { type: string }[] }).deliveries,
      (list) => list.length >= 1,
      15_000,
      500,
    );
    expect(log.map((delivery) => delivery.type)).toEqual(['invoice.canceled']);
  }, 60_000);
});
