import { describe, expect, it } from 'vitest';
import { flushMetrics } from '../../../../shared/platform/metrics';
import { deliverWebhook, type PostResult, type WebhookMessage } from '../../../../shared/app/webhooks/deliver-webhook';
import type { DeliveryAttemptRecord, WebhookDelivery, WebhookEventType } from '../../../../shared/domain/webhooks';
import type { WebhookStore } from '../../../../shared/ports/webhooks';

const T0 = new Date('2026-11-27T12:00:00.000Z');

/** A store of one event and its delivery record; the sender's steps are logged in order. */
function world(options: { delivery?: WebhookDelivery; claim?: boolean; record?: boolean; post?: PostResult; events?: readonly WebhookEventType[] } = {}) {
  const steps: string[] = [];
  const recorded: DeliveryAttemptRecord[] = [];
  const scheduled: WebhookMessage[] = [];
  const webhooks: WebhookStore = {
    settings: async () => ({ url: 'https://shop.example/hooks', secretConfigured: true }),
    endpoint: async () => ({ url: 'https://shop.example/hooks', secret: 'whsec_x', ...(options.events ? { events: options.events } : {}) }),
    event: async (eventId) => (eventId === 'evt_1' ? { eventId, accountId: 'acct_1', eventType: 'invoice.paid', body: '{"id":"evt_1"}' } : undefined),
    delivery: async () => options.delivery,
    deliveries: async () => [],
    accountExists: async () => true,
    allDeliveries: async () => [],
    claimAttempt: async () => {
      steps.push('claim');
      return options.claim === false
        ? { claimed: false, current: { ...(options.delivery as WebhookDelivery), claimUntil: new Date(T0.getTime() + 30_000).toISOString() } }
        : { claimed: true };
    },
    recordAttempt: async (record) => {
      steps.push('record');
      recorded.push(record);
      return options.record !== false;
    },
  };
  const ports = {
    webhooks,
    post: async (url: string, body: string) => {
      steps.push(`post ${url} ${body}`);
      return options.post ?? { ok: true, status: 200, error: null };
    },
    schedule: async (message: WebhookMessage) => {
      steps.push('schedule');
      scheduled.push(message);
    },
    now: () => T0,
    retryScale: 1,
  };
  return { ports, steps, recorded, scheduled };
}

const pending = (attempts: number): WebhookDelivery => ({
  eventId: 'evt_1',
  accountId: 'acct_1',
  eventType: 'invoice.paid',
  url: 'https://shop.example/hooks',
  status: 'pending',
  attempts,
  nextAttemptAt: T0.toISOString(),
  lastStatus: 500,
  lastError: null,
  series: 1,
  createdAt: T0.toISOString(),
  updatedAt: T0.toISOString(),
  attemptLog: [],
});

describe('deliver a webhook (use case)', () => {
  it('claims, POSTs the stored body, records a success; nothing scheduled', async () => {
    const w = world();
    expect(await deliverWebhook(w.ports, { eventId: 'evt_1' })).toBe('done');
    expect(w.steps).toEqual(['claim', 'post https://shop.example/hooks {"id":"evt_1"}', 'record']);
    expect(w.recorded[0]).toMatchObject({ status: 'succeeded', attempts: 1, nextAttemptAt: null, lastStatus: 200 });
  });

  it('a failure schedules the next attempt BEFORE recording (a crash between repeats, never loses the chain)', async () => {
    const w = world({ post: { ok: false, status: 503, error: 'HTTP 503' } });
    await deliverWebhook(w.ports, { eventId: 'evt_1' });
    expect(w.steps).toEqual(['claim', 'post https://shop.example/hooks {"id":"evt_1"}', 'schedule', 'record']);
    expect(w.scheduled).toEqual([{ eventId: 'evt_1', attempt: 2, notBefore: new Date(T0.getTime() + 60_000).toISOString() }]);
    expect(w.recorded[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 503, lastError: 'HTTP 503' });
  });

  it('the eighth failure fails the delivery, nothing scheduled', async () => {
    const w = world({ delivery: pending(7), post: { ok: false, status: 500, error: 'HTTP 500' } });
    await deliverWebhook(w.ports, { eventId: 'evt_1', attempt: 8 });
    expect(w.scheduled).toEqual([]);
    expect(w.recorded[0]).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null });
  });

  it('sends nothing for a stale duplicate, an unknown event, or an attempt another message holds (it comes back after the lease)', async () => {
    const stale = world({ delivery: pending(2) });
    expect(await deliverWebhook(stale.ports, { eventId: 'evt_1', attempt: 2 })).toBe('done');
    expect(await deliverWebhook(stale.ports, { eventId: 'evt_unknown' })).toBe('done');
    expect(stale.steps).toEqual([]);
    const held = world({ delivery: pending(1), claim: false });
    const outcome = await deliverWebhook(held.ports, { eventId: 'evt_1', attempt: 2 });
    expect(held.steps).toEqual(['claim']);
    expect(outcome).toEqual({ later: { eventId: 'evt_1', attempt: 2, notBefore: new Date(T0.getTime() + 30_000).toISOString() } });
  });

  it('a lease lost before recording leaves the other attempt’s record standing', async () => {
    const w = world({ record: false });
    expect(await deliverWebhook(w.ports, { eventId: 'evt_1' })).toBe('done');
    expect(w.steps).toEqual(['claim', 'post https://shop.example/hooks {"id":"evt_1"}', 'record']);
  });

  it('an event type the account does not subscribe to is not sent, claimed or recorded; a subscribed one is (issue 29)', async () => {
    const unsubscribed = world({ events: ['invoice.refunded', 'pixout.paid'] });
    expect(await deliverWebhook(unsubscribed.ports, { eventId: 'evt_1' })).toBe('done');
    expect(unsubscribed.steps).toEqual([]);
    const subscribed = world({ events: ['invoice.paid'] });
    expect(await deliverWebhook(subscribed.ports, { eventId: 'evt_1' })).toBe('done');
    expect(subscribed.steps).toEqual(['claim', 'post https://shop.example/hooks {"id":"evt_1"}', 'record']);
  });

  it("records each attempt's time to answer; a 2xx after 5 s or more is counted as a slow answer, a quick one is not (issue 29)", async () => {
    const printed: string[] = [];
    const original = process.stdout.write;
    process.stdout.write = ((chunk: unknown) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      for (const elapsedMs of [6_000, 40]) {
        const w = world();
        let calls = 0;
        // The clock: the attempt starts, the POST is sent, then answered `elapsedMs` later.
        const clocked = { ...w.ports, now: () => new Date(T0.getTime() + (calls++ >= 2 ? elapsedMs : 0)) };
        flushMetrics();
        printed.length = 0;
        expect(await deliverWebhook(clocked, { eventId: 'evt_1' })).toBe('done');
        expect(w.recorded[0]).toMatchObject({ status: 'succeeded', durationMs: elapsedMs });
        flushMetrics();
        expect(printed.join('').includes('"WebhookSlowAnswers"'), String(elapsedMs)).toBe(elapsedMs >= 5_000);
      }
    } finally {
      process.stdout.write = original;
    }
  });
});
