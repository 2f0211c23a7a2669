import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, latestVersions, versionOf, type WebhookEvent } from '../../events/webhook-receiver';
import { signWebhookPayload } from '../../shared/domain/webhook-verify';

const SECRET = 'whsec_test_receiver_versions';

const invoiceEvent = (id: string, type: string, status: string, version: number, previous: string | null): WebhookEvent => ({
  id,
  type,
  created: 1_795_000_000 + version,
  api_version: 'v',
  data: { invoice: { reference: 'INV-7KQ2MX', status, version, previous_status: previous } },
});

const paid = invoiceEvent('evt_paid', 'invoice.paid', 'PAID', 2, 'PENDING');
const refunded = invoiceEvent('evt_refunded', 'invoice.refunded', 'REFUNDED', 3, 'PAID');

describe('the example receiver keeps the highest version per object (issue 29)', () => {
  it('reads the object and version of invoice, withdraw and order events; the ping has none', () => {
    expect(versionOf(paid)).toEqual({ key: 'invoice:INV-7KQ2MX', version: 2 });
    expect(versionOf({ ...paid, data: { withdraw: { reference: 'WD-1', version: 2 } } })).toEqual({ key: 'withdraw:WD-1', version: 2 });
    expect(versionOf({ ...paid, data: { order: { reference: 'CHK-1', version: 1 } } })).toEqual({ key: 'order:CHK-1', version: 1 });
    expect(versionOf({ ...paid, type: 'webhook.test', data: { message: 'ping' } })).toBeUndefined();
  });

  it('an older version after a newer one is dropped; the same object at a higher version and other objects pass', () => {
    const versions = latestVersions();
    expect(versions.isNewer(refunded)).toBe(true);
    expect(versions.isNewer(paid)).toBe(false);
    expect(versions.isNewer(refunded)).toBe(false);
    expect(versions.isNewer({ ...paid, data: { invoice: { reference: 'INV-OTHER1', version: 2 } } })).toBe(true);
    const inOrder = latestVersions();
    expect([paid, refunded].map((event) => inOrder.isNewer(event))).toEqual([true, true]);
  });

  describe('over HTTP', () => {
    const handled: WebhookEvent[] = [];
    const server = createReceiver(SECRET, (event) => void handled.push(event));
    let url = '';

    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    async function deliver(event: WebhookEvent): Promise<unknown> {
      const body = JSON.stringify(event);
      const reply = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'service-event-id': event.id,
          'service-signature': signWebhookPayload(body, SECRET, Math.floor(Date.now() / 1000)),
        },
        body,
      });
      expect(reply.status).toBe(200);
      return reply.json();
    }

    it('delivered in reverse order (refunded, then a retried paid): answers 200 to both and handles only the later state', async () => {
      expect(await deliver(refunded)).toEqual({ received: true });
      expect(await deliver(paid)).toEqual({ received: true, stale: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect(handled.map((event) => event.id)).toEqual(['evt_refunded']);
    });
  });
});
