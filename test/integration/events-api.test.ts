import { afterAll, describe, expect, it } from 'vitest';
import { bearer, call, newAccount, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { eventually } from '../support/ledger';
import { notification, notify } from '../support/provider';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * The events API (issue 29): GET /api/events ("what did I miss?"), GET /api/events/{id} with its delivery
 * attempts, POST /api/events/{id}/redeliver (a new series with the same id and body), 404 for another
 * account's event on each. Each test has its own account and receiver: none depends on another's run.
 */

type Listed = { id: string; type: string; delivery_status: string; data: Record<string, unknown> };
type Merchant = { auth: Record<string, string>; receiver: Receiver; behaviour: { failing: boolean } };

const receivers: Receiver[] = [];

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/**
 * A fresh account whose webhook points at its own receiver (on its own loopback address: a receiver holds
 * port 8443 of its address): failing every attempt while `behaviour.failing`, then 200.
 */
async function merchant(address: string, events?: string[]): Promise<Merchant> {
  const behaviour = { failing: true };
  const receiver = await startReceiver(address, () => ({ status: behaviour.failing ? 500 : 200 }));
  receivers.push(receiver);
  const auth = bearer(await tokenFor(await newAccount()));
  expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url, ...(events ? { events } : {}) } })).status).toBe(200);
  return { auth, receiver, behaviour };
}

const list = async (auth: Record<string, string>, query: string) => {
  const reply = await call('GET', `/api/events${query}`, { headers: auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { events: Listed[] }).events;
};

/** Polls a list at 2 calls a second at most (the account may call 60 times a minute). */
const listUntil = (auth: Record<string, string>, query: string, ok: (events: Listed[]) => boolean, timeoutMs = 60_000) =>
  eventually(() => list(auth, query), ok, timeoutMs, 500);

type Detail = { event: { delivery: { attempts: { http_status: number | null; duration_ms: number; at: string }[]; series: number } } };

describe('the events API', () => {
  it('an event whose 8 attempts failed: listed with delivery_status=failed, shown with each attempt; redelivered once with the same id and body, then delivered', async () => {
    const { auth, receiver, behaviour } = await merchant('127.0.0.14');
    const pix = await createCharge('pix', auth, common());
    expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).json).toMatchObject({ applied: true });
    const failed = await listUntil(auth, '?delivery_status=failed', (events) => events.length === 1);
    expect(failed).toHaveLength(1);
    const [event] = failed;
    const failedId = event?.id ?? '';
    expect(event).toMatchObject({ type: 'invoice.paid', delivery_status: 'failed', data: { invoice: { reference: pix.invoice.reference, version: 2 } } });
    expect(await list(auth, '?delivery_status=delivered')).toEqual([]);
    expect((await list(auth, '?type=invoice.paid')).map((e) => e.id)).toEqual([failedId]);
    expect(await list(auth, '?type=order.paid')).toEqual([]);

    const detail = await call('GET', `/api/events/${failedId}`, { headers: auth });
    expect(detail.status).toBe(200);
    const shown = (detail.json as Detail).event;
    expect(shown.delivery.attempts).toHaveLength(8);
    expect(shown.delivery.attempts.every((attempt) => attempt.http_status === 500 && attempt.duration_ms >= 0)).toBe(true);
    expect(shown.delivery.series).toBe(1);
    expect(receiver.received).toHaveLength(8);

    // The redelivery: a new series (the same id and body), delivered once.
    behaviour.failing = false;
    const original = receiver.received[0]?.body;
    const queued = await call('POST', `/api/events/${failedId}/redeliver`, { headers: auth });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.json).toEqual({ event_id: failedId, status: 'queued' });
    const delivered = await listUntil(auth, '?delivery_status=delivered', (events) => events.some((e) => e.id === failedId));
    expect(delivered.map((e) => e.id)).toEqual([failedId]);
    // Delivered: the series recorded its one attempt, the 9th in all, answered 200 (a second send would be a 10th attempt).
    const after = (await call('GET', `/api/events/${failedId}`, { headers: auth })).json as Detail;
    expect(after.event.delivery).toMatchObject({ series: 2 });
    expect(after.event.delivery.attempts).toHaveLength(9);
    expect(after.event.delivery.attempts[8]?.http_status).toBe(200);
    const received = await eventually(
      () => receiver.received.length,
      (n) => n >= 9,
      10_000,
      50,
    );
    expect(received).toBe(9);
    expect(receiver.received[8]?.body).toBe(original);
    expect(receiver.received[8]?.headers['service-event-id']).toBe(failedId);
  }, 120_000);

  it("another account's event answers 404 on every route of the events API, and is never listed", async () => {
    const { auth } = await merchant('127.0.0.17');
    const pix = await createCharge('pix', auth, common());
    expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).json).toMatchObject({ applied: true });
    const [event] = await listUntil(auth, '?type=invoice.paid', (events) => events.length === 1, 15_000);
    const id = event?.id ?? '';
    expect(id).toMatch(/^evt_/);
    const stranger = bearer(await tokenFor(await newAccount()));
    expect((await call('GET', `/api/events/${id}`, { headers: stranger })).status).toBe(404);
    expect((await call('POST', `/api/events/${id}/redeliver`, { headers: stranger })).status).toBe(404);
    expect((await call('GET', '/api/events', { headers: stranger })).json).toMatchObject({ events: [] });
    expect((await call('GET', '/api/events/evt_nothing', { headers: auth })).status).toBe(404);
  }, 30_000);

  it('an unsubscribed type is listed as not_sent, never delivered', async () => {
    const { auth, receiver } = await merchant('127.0.0.18', ['pixout.paid']);
    const pix = await createCharge('pix', auth, common());
    expect((await notify(notification('cancel', { reference: String(pix.invoice.reference) }))).json).toMatchObject({ applied: true });
    const canceled = await listUntil(auth, '?type=invoice.canceled', (events) => events.length === 1, 15_000);
    expect(canceled[0]).toMatchObject({ delivery_status: 'not_sent', data: { invoice: { reference: pix.invoice.reference } } });
    expect(receiver.received).toHaveLength(0);
  }, 30_000);
});
