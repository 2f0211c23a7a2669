import { describe, expect, it } from 'vitest';
import type { WebhookMessage } from '../../../../shared/app/webhooks/deliver-webhook';
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
  ...extra,
});

function world(options: { delivery?: WebhookDelivery; url?: string; reopens?: boolean } = {}) {
  const sent: WebhookMessage[] = [];
  const reopened: { status: string; attempts: number }[] = [];
  const webhooks: WebhookStore = {
    settings: async () => ({ url: options.url, secretConfigured: true }),
    endpoint: async () => undefined,
    event: async (eventId) => (eventId === 'evt_1' ? { eventId, accountId: 'acct_1', eventType: 'invoice.paid', body: '{}' } : undefined),
    delivery: async () => options.delivery,
    deliveries: async () => [],
    accountExists: async (accountId) => accountId === 'acct_1',
    allDeliveries: async () => [over('failed', 8), over('succeeded', 1, { eventId: 'evt_2', series: 2 })],
    reopen: async (_eventId, expected) => {
      reopened.push(expected);
      return options.reopens !== false;
    },
    claimAttempt: async () => ({ claimed: true }),
    recordAttempt: async () => true,
  };
  return { sent, reopened, ports: { webhooks, send: async (m: WebhookMessage) => void sent.push(m), now: () => NOW } };
}

describe('redeliver a webhook (the operator use case)', () => {
  it('reopens a delivery that is over, only as read, then sends attempt 1 of the new series', async () => {
    const w = world({ delivery: over('failed', 8), url: 'https://shop.example/hooks' });
    expect(await redeliverWebhook(w.ports, 'evt_1')).toEqual({ event_id: 'evt_1', queued: true });
    expect(w.reopened).toEqual([{ status: 'failed', attempts: 8 }]);
    expect(w.sent).toEqual([{ eventId: 'evt_1', attempt: 1, notBefore: NOW.toISOString() }]);
  });

  it('refuses an unknown event, an account without a URL, a series still running, or a record that changed meanwhile; sends nothing', async () => {
    const cases: [ReturnType<typeof world>, string][] = [
      [world({ url: 'https://x.example/' }), 'evt_unknown'],
      [world({}), 'evt_1'],
      [world({ delivery: over('pending', 2), url: 'https://x.example/' }), 'evt_1'],
      [world({ delivery: over('pending', 0, { claimUntil: '2026-11-27T12:00:30.000Z' }), url: 'https://x.example/' }), 'evt_1'],
      [world({ delivery: over('succeeded', 1), url: 'https://x.example/', reopens: false }), 'evt_1'],
    ];
    for (const [w, eventId] of cases) {
      await expect(redeliverWebhook(w.ports, eventId)).rejects.toBeInstanceOf(RedeliveryRefusedError);
      expect(w.sent).toEqual([]);
    }
  });

  it('a pending delivery with no attempt made gets attempt 1 again (the sender’s claim absorbs a duplicate)', async () => {
    const w = world({ delivery: over('pending', 0), url: 'https://x.example/' });
    await redeliverWebhook(w.ports, 'evt_1');
    expect(w.reopened).toEqual([]);
    expect(w.sent).toHaveLength(1);
  });

  it('lists an account’s deliveries with their series, filtered by status; an unknown account is refused', async () => {
    const w = world();
    expect((await operatorDeliveries(w.ports, 'acct_1', 'succeeded')).map((d) => [d.event_id, d.series])).toEqual([['evt_2', 2]]);
    await expect(operatorDeliveries(w.ports, 'acct_2')).rejects.toBeInstanceOf(RedeliveryRefusedError);
  });
});
