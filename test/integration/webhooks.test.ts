import { WEBHOOK_EVENT_TYPES } from '../../shared/domain/webhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../shared/domain/webhook-verify';
import { bearer, call, newAccount, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { eventually } from '../support/ledger';
import { notification, notify } from '../support/provider';
import { type Behaviour, type Receiver, startReceiver } from '../support/webhook-receiver';

type Delivery = {
  event_id: string;
  type: string;
  url: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
};

const receivers: Receiver[] = [];
let nextIp = 2;

async function receiver(behaviour?: Behaviour): Promise<Receiver> {
  const r = await startReceiver(`127.0.0.${nextIp}`, behaviour);
  nextIp += 1;
  receivers.push(r);
  return r;
}

async function configured(url: string) {
  const auth = bearer(await tokenFor(await newAccount()));
  const reply = await call('PUT', '/api/webhook', { headers: auth, body: { url } });
  expect(reply.status, reply.text).toBe(200);
  return { auth, secret: (reply.json as { webhook: { secret: string } }).webhook.secret };
}

async function deliveries(auth: Record<string, string>): Promise<Delivery[]> {
  const reply = await call('GET', '/api/webhook/deliveries', { headers: auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { deliveries: Delivery[] }).deliveries;
}

/** Polls the delivery log at 2 calls a second at most (the account may call 60 times a minute). */
const deliveriesUntil = (auth: Record<string, string>, ok: (list: Delivery[]) => boolean, timeoutMs = 30_000) =>
  eventually(() => deliveries(auth), ok, timeoutMs, 500);

async function paidPixEvent(auth: Record<string, string>): Promise<string> {
  const pix = await createCharge('pix', auth, common());
  await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }));
  return String(pix.invoice.reference);
}

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook management API', () => {
  let auth: Record<string, string>;
  beforeAll(async () => {
    auth = bearer(await tokenFor(await newAccount()));
  });

  it('starts unconfigured; the test call answers 409', async () => {
    const reply = await call('GET', '/api/webhook', { headers: auth });
    expect(reply.json).toEqual({ webhook: { url: null, secret_configured: false, events: expect.arrayContaining(['invoice.paid', 'pixout.paid', 'ping']) } });
    expect((await call('POST', '/api/webhook/test', { headers: auth })).status).toBe(409);
    expect((await call('POST', '/api/webhook/secret/rotate', { headers: auth })).status).toBe(409);
  });

  it('refuses URLs that break the rules with 422 on url', async () => {
    for (const url of [
      'http://127.0.0.2:8443/hooks',
      'https://user:pass@127.0.0.2:8443/',
      'https://127.0.0.2:80/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest',
      'https://[::1]/',
      'not a url',
      `https://x.example/${'a'.repeat(250)}`,
    ]) {
      const reply = await call('PUT', '/api/webhook', { headers: auth, body: { url } });
      expect(reply.status, url).toBe(422);
      expect((reply.json as { error: { url: string[] } }).error.url.length, url).toBeGreaterThan(0);
    }
  });

  it('shows the secret once at first configuration, keeps it on updates and never returns it from GET', async () => {
    const first = await call('PUT', '/api/webhook', { headers: auth, body: { url: 'https://127.0.0.13:8443/a' } });
    const body = first.json as { webhook: { url: string; secret: string; secret_notice: string } };
    expect(body.webhook.url).toBe('https://127.0.0.13:8443/a');
    expect(body.webhook.secret, first.text).toMatch(/^whsec_[A-Za-z0-9_-]{43,}$/);
    expect(body.webhook.secret_notice).toEqual(expect.any(String));
    const update = await call('PUT', '/api/webhook', { headers: auth, body: { url: 'https://127.0.0.13:8443/b' } });
    expect(update.json).toEqual({ webhook: { url: 'https://127.0.0.13:8443/b', events: [...WEBHOOK_EVENT_TYPES], secret_notice: expect.any(String) } });
    const shown = await call('GET', '/api/webhook', { headers: auth });
    expect(shown.json).toMatchObject({ webhook: { url: 'https://127.0.0.13:8443/b', secret_configured: true } });
    expect(shown.text).not.toContain(body.webhook.secret);
  });
});

describe('signed delivery through the stream and the queue', () => {
  it('delivers invoice.paid, signed over the exact bytes, verifiable by our helper and by Stripe', async () => {
    const r = await receiver();
    const { auth, secret } = await configured(r.url);
    const reference = await paidPixEvent(auth);
    await eventually(
      () => r.received,
      (list) => list.length >= 1,
    );
    const [got] = r.received;
    if (!got) throw new Error('no webhook arrived');
    const event = JSON.parse(got.body) as {
      id: string;
      type: string;
      created: number;
      api_version: string;
      data: { invoice: { reference: string; status: string } };
    };
    expect(event).toMatchObject({ type: 'invoice.paid', api_version: '2026-10-14', data: { invoice: { reference, status: 'PAID', total: '190.00' } } });
    expect(event.id).toMatch(/^evt_[A-Za-z0-9]{24}$/);
    expect(Number.isInteger(event.created)).toBe(true);
    expect(got.headers['service-event-id']).toBe(event.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('Service-Webhooks/1.0');
    const header = String(got.headers['service-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(got.body, header, secret)).toBe(true);
    expect(new Stripe('sk_test_unused').webhooks.constructEvent(got.body, header, secret)).toMatchObject({ id: event.id });
    const record = await deliveriesUntil(auth, (list) => list[0]?.status === 'succeeded');
    expect(record[0]).toMatchObject({
      event_id: event.id,
      type: 'invoice.paid',
      url: r.url,
      status: 'succeeded',
      attempts: 1,
      last_status: 200,
      last_error: null,
    });
  });

  it('retries a failing receiver: 3 failures then 200 → delivered on attempt 4, same event id each time', async () => {
    const r = await receiver((n) => ({ status: n < 3 ? 503 : 200 }));
    const { auth } = await configured(r.url);
    await paidPixEvent(auth);
    const record = await deliveriesUntil(auth, (list) => list[0]?.status === 'succeeded');
    expect(record[0]).toMatchObject({ status: 'succeeded', attempts: 4, last_status: 200 });
    expect(r.received).toHaveLength(4);
    expect(new Set(r.received.map((x) => x.headers['service-event-id'])).size).toBe(1);
  }, 45_000);

  it('gives up after exactly 8 attempts when the receiver never answers 2xx', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const { auth } = await configured(r.url);
    await paidPixEvent(auth);
    const record = await deliveriesUntil(auth, (list) => list[0]?.status === 'failed', 60_000);
    expect(record[0]).toMatchObject({ status: 'failed', attempts: 8, last_status: 500, next_attempt_at: null });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(r.received).toHaveLength(8);
  }, 75_000);

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, location: target.url }));
    const { auth } = await configured(r.url);
    await paidPixEvent(auth);
    const record = await deliveriesUntil(auth, (list) => (list[0]?.attempts ?? 0) >= 1);
    expect(record[0]).toMatchObject({ last_status: 302, last_error: expect.stringContaining('redirect') });
    expect(record[0]?.status).not.toBe('succeeded');
    expect(target.received).toHaveLength(0);
  });

  it('signs with the new secret right after a rotation: the old secret no longer verifies', async () => {
    const r = await receiver();
    const { auth, secret: old } = await configured(r.url);
    const rotated = await call('POST', '/api/webhook/secret/rotate', { headers: auth });
    expect(rotated.status).toBe(200);
    const fresh = (rotated.json as { webhook: { secret: string; secret_notice: string } }).webhook.secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    const queued = await call('POST', '/api/webhook/test', { headers: auth });
    expect(queued.status).toBe(202);
    const { event_id: eventId } = queued.json as { event_id: string; status: string };
    expect(queued.json).toEqual({ event_id: eventId, status: 'queued' });
    await eventually(
      () => r.received,
      (list) => list.length >= 1,
    );
    const got = r.received[0];
    if (!got) throw new Error('no ping arrived');
    expect(JSON.parse(got.body)).toMatchObject({ id: eventId, type: 'ping', data: { message: expect.any(String) } });
    const header = String(got.headers['service-signature']);
    expect(verifyWebhookSignature(got.body, header, fresh)).toBe(true);
    expect(verifyWebhookSignature(got.body, header, old)).toBe(false);
  });
});
