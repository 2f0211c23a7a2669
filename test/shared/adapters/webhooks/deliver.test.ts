import { afterAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../../../shared/adapters/webhooks/deliver';
import { type Receiver, startReceiver } from '../../../support/webhook-receiver';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(ip: string, behaviour?: Parameters<typeof startReceiver>[1]) {
  const r = await startReceiver(ip, behaviour);
  receivers.push(r);
  return r;
}

const post = (url: string, address: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) =>
  postWebhook({ url: new URL(url), address, body: '{"id":"evt_1"}', headers: { 'Content-Type': 'application/json' }, ...extra });

describe('postWebhook', () => {
  it('connects to the pinned address, whatever the hostname resolves to, with SNI and Host of the hostname', async () => {
    const pinned = await receiver('127.0.0.10');
    const result = await post('https://localhost:8443/hooks?x=1', '127.0.0.10');
    expect(result).toEqual({ ok: true, status: 200, error: null });
    expect(pinned.received).toHaveLength(1);
    expect(pinned.received[0]?.headers.host).toBe('localhost:8443');
    expect(pinned.received[0]?.body).toBe('{"id":"evt_1"}');
  });

  it('treats a redirect as a failure and does not follow it; a 4xx or 5xx too', async () => {
    const target = await receiver('127.0.0.11');
    await receiver('127.0.0.12', (n) => (n === 0 ? { status: 301, location: 'https://127.0.0.11:8443/hooks' } : { status: 410 }));
    expect(await post('https://127.0.0.12:8443/hooks', '127.0.0.12')).toEqual({ ok: false, status: 301, error: 'redirect not followed (301)' });
    expect(target.received).toHaveLength(0);
    expect(await post('https://127.0.0.12:8443/hooks', '127.0.0.12')).toEqual({ ok: false, status: 410, error: 'HTTP 410' });
  });

  it('gives up when the receiver does not answer in time, and when nothing listens', async () => {
    await receiver('127.0.0.13', () => 'hang');
    const started = Date.now();
    const slow = await post('https://127.0.0.13:8443/hooks', '127.0.0.13', { totalTimeoutMs: 300 });
    expect(slow).toEqual({ ok: false, status: null, error: 'timed out after 0.3 s' });
    expect(Date.now() - started).toBeLessThan(3000);
    const refused = await post('https://127.0.0.9:8443/hooks', '127.0.0.9');
    expect(refused).toMatchObject({ ok: false, status: null, error: expect.any(String) });
  });
});
