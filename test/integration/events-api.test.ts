import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, newAccount, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { eventually } from '../support/ledger';
import { notification, notify } from '../support/provider';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * The events API (issue 29): GET /api/events ("what did I miss?"), GET /api/events/{id} with its delivery
 * attempts, POST /api/events/{id}/redeliver (a new series with the same id and body), 404 for another
 * account's event on each.
 */

type Listed = { id: string; type: string; delivery_status: string; data: Record<string, unknown> };

let receiver: Receiver;
let failing = true;
let auth: Record<string, string>;

const list = async (query: string) => {
  const reply = await call('GET', `/api/events${query}`, { headers: auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { events: Listed[] }).events;
};

/** Polls a list at 2 calls a second at most (the account may call 60 times a minute). */
const listUntil = (query: string, ok: (events: Listed[]) => boolean, timeoutMs = 60_000) => eventually(() => list(query), ok, timeoutMs, 500);

beforeAll(async () => {
  // Fails every attempt while `failing`, then answers 200.
  receiver = await startReceiver('127.0.0.14', () => ({ status: failing ? 500 : 200 }));
  auth = bearer(await tokenFor(await newAccount()));
  expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url } })).status).toBe(200);
});

afterAll(async () => {
  await receiver?.close();
});

describe('the events API', () => {
  let failedId = '';

  it('lists exactly the events whose 8 attempts failed with delivery_status=failed; GET /api/events/{id} shows each attempt', async () => {
    const pix = await createCharge('pix', auth, common());
    expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).json).toMatchObject({ applied: true });
    const failed = await listUntil('?delivery_status=failed', (events) => events.length === 1);
    expect(failed).toHaveLength(1);
    const [event] = failed;
    failedId = event?.id ?? '';
    expect(event).toMatchObject({ type: 'invoice.paid', delivery_status: 'failed', data: { invoice: { reference: pix.invoice.reference, version: 2 } } });
    expect(await list('?delivery_status=delivered')).toEqual([]);
    expect((await list('?type=invoice.paid')).map((e) => e.id)).toEqual([failedId]);
    expect(await list('?type=order.paid')).toEqual([]);

    const detail = await call('GET', `/api/events/${failedId}`, { headers: auth });
    expect(detail.status).toBe(200);
    const shown = (detail.json as { event: { delivery: { attempts: { http_status: number | null; duration_ms: number; at: string }[]; series: number } } })
      .event;
    expect(shown.delivery.attempts).toHaveLength(8);
    expect(shown.delivery.attempts.every((attempt) => attempt.http_status === 500 && attempt.duration_ms >= 0)).toBe(true);
    expect(shown.delivery.series).toBe(1);
    expect(receiver.received).toHaveLength(8);
  }, 90_000);

  it('a redelivery delivers the same id and body once; then the event is delivered', async () => {
    failing = false;
    const original = receiver.received[0]?.body;
    const queued = await call('POST', `/api/events/${failedId}/redeliver`, { headers: auth });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.json).toEqual({ event_id: failedId, status: 'queued' });
    const delivered = await listUntil('?delivery_status=delivered', (events) => events.some((e) => e.id === failedId));
    expect(delivered.map((e) => e.id)).toEqual([failedId]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).toHaveLength(9);
    expect(receiver.received[8]?.body).toBe(original);
    expect(receiver.received[8]?.headers['service-event-id']).toBe(failedId);
    const detail = (await call('GET', `/api/events/${failedId}`, { headers: auth })).json as { event: { delivery: { series: number; attempts: unknown[] } } };
    expect(detail.event.delivery).toMatchObject({ series: 2 });
    expect(detail.event.delivery.attempts).toHaveLength(9);
  }, 60_000);

  it("another account's event answers 404 on every route of the events API, and is never listed", async () => {
    const stranger = bearer(await tokenFor(await newAccount()));
    expect((await call('GET', `/api/events/${failedId}`, { headers: stranger })).status).toBe(404);
    expect((await call('POST', `/api/events/${failedId}/redeliver`, { headers: stranger })).status).toBe(404);
    expect((await call('GET', '/api/events', { headers: stranger })).json).toMatchObject({ events: [] });
    expect((await call('GET', '/api/events/evt_nothing', { headers: auth })).status).toBe(404);
  });

  it('an unsubscribed type is listed as not_sent, never delivered', async () => {
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url, events: ['pixout.paid'] } })).status).toBe(200);
    const before = receiver.received.length;
    const pix = await createCharge('pix', auth, common());
    expect((await notify(notification('cancel', { reference: String(pix.invoice.reference) }))).json).toMatchObject({ applied: true });
    const canceled = await listUntil('?type=invoice.canceled', (events) => events.length === 1, 15_000);
    expect(canceled[0]).toMatchObject({ delivery_status: 'not_sent', data: { invoice: { reference: pix.invoice.reference } } });
    expect(receiver.received).toHaveLength(before);
  }, 30_000);
});
