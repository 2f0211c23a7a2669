import { describe, expect, it } from 'vitest';
import { operatorDeliveries, RedeliveryRefusedError, redeliverWebhook } from '../../../../shared/app/webhooks/redeliver-webhook';
import type { WebhookDelivery } from '../../../../shared/domain/webhooks';
import type { WebhookStore } from '../../../../shared/ports/webhooks';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const over = (status: 'succeeded' | 'failed' | 'pending', attempts: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  eventId: 'evt_1',
  accountId: 'acct_1',
  eventType: 'invoice.paid',
  url: 'https://shop.example/hooks',
  status,
  attempts,
  nextAttemptAt: null,
  lastStatus: 500,
  lastError: null,
  series: 1,
  createdAt: 'C',
  updatedAt: 'U',
  attemptLog: [],
  ...extra,
});

function world(options: { delivery?: WebhookDelivery; url?: string } = {}) {
  const webhooks: WebhookStore = {
    settings: async () => ({ url: options.url, secretConfigured: true }),
    endpoint: async () => undefined,
    event: async (eventId) => (eventId === 'evt_1' ? { eventId, accountId: 'acct_1', eventType: 'invoice.paid', body: '{}' } : undefined),
    delivery: async () => options.delivery,
    deliveries: async () => [],
    accountExists: async (accountId) => accountId === 'acct_1',
    allDeliveries: async () => [over('failed', 8), over('succeeded', 1, { eventId: 'evt_2', series: 2 })],
    claimAttempt: async () => ({ claimed: true }),
    recordAttempt: async () => true,
  };
  return { ports: { webhooks, now: () => NOW } };
}

const at = NOW.toISOString();

describe('redeliver a webhook (the operator’s and the panel’s use case)', () => {
  it('reopens a delivery that is over, only as read (the change’s condition), with a request the stream forwards as attempt 1', async () => {
    const w = world({ delivery: over('failed', 8), url: 'https://shop.example/hooks' });
    expect(await redeliverWebhook(w.ports, 'evt_1')).toEqual({
      answer: { event_id: 'evt_1', queued: true },
      changes: [{ kind: 'webhook.redelivery_requested', accountId: 'acct_1', eventId: 'evt_1', at, reopen: { status: 'failed', attempts: 8 } }],
    });
    expect((await redeliverWebhook(world({ delivery: over('succeeded', 1), url: 'https://x.example/' }).ports, 'evt_1')).changes[0].reopen).toEqual({
      status: 'succeeded',
      attempts: 1,
    });
  });

  it('refuses an unknown event, another account’s (404 alike), an account without a URL, or a series still running; says no change', async () => {
    const cases: [ReturnType<typeof world>, string, string | undefined, string][] = [
      [world({ url: 'https://x.example/' }), 'evt_unknown', undefined, 'event_not_found'],
      [world({ delivery: over('failed', 8), url: 'https://x.example/' }), 'evt_1', 'acct_2', 'event_not_found'],
      [world({}), 'evt_1', undefined, 'webhook_not_configured'],
      [world({ delivery: over('pending', 2), url: 'https://x.example/' }), 'evt_1', undefined, 'delivery_running'],
      [world({ delivery: over('pending', 0, { claimUntil: '2026-11-27T12:00:30.000Z' }), url: 'https://x.example/' }), 'evt_1', undefined, 'delivery_running'],
    ];
    for (const [w, eventId, accountId, code] of cases) {
      const refused = redeliverWebhook(w.ports, eventId, accountId);
      await expect(refused).rejects.toBeInstanceOf(RedeliveryRefusedError);
      await expect(refused).rejects.toMatchObject({ code, kind: code === 'event_not_found' ? 'not_found' : 'conflict' });
    }
  });

  it('the account’s own event is redelivered when the account is named', async () => {
    const w = world({ delivery: over('failed', 8), url: 'https://x.example/' });
    expect((await redeliverWebhook(w.ports, 'evt_1', 'acct_1')).answer).toEqual({ event_id: 'evt_1', queued: true });
  });

  it('a pending delivery with no attempt made gets attempt 1 again, without reopening (the sender’s claim absorbs a duplicate)', async () => {
    const w = world({ delivery: over('pending', 0), url: 'https://x.example/' });
    expect((await redeliverWebhook(w.ports, 'evt_1')).changes).toEqual([{ kind: 'webhook.redelivery_requested', accountId: 'acct_1', eventId: 'evt_1', at }]);
    // A lease already run out does not hold the series either.
    const lapsed = world({ delivery: over('pending', 0, { claimUntil: '2026-11-27T11:59:00.000Z' }), url: 'https://x.example/' });
    expect((await redeliverWebhook(lapsed.ports, 'evt_1')).changes[0].reopen).toBeUndefined();
  });

  it('lists an account’s deliveries with their series, filtered by status; an unknown account is refused', async () => {
    const w = world();
    expect((await operatorDeliveries(w.ports, 'acct_1', 'succeeded')).map((d) => [d.event_id, d.series])).toEqual([['evt_2', 2]]);
    await expect(operatorDeliveries(w.ports, 'acct_2')).rejects.toBeInstanceOf(RedeliveryRefusedError);
  });
});
