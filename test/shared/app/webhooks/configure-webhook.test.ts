import { describe, expect, it } from 'vitest';
import { configureWebhook, rotateWebhookSecret } from '../../../../shared/app/webhooks/configure-webhook';
import { sendTestEvent } from '../../../../shared/app/webhooks/send-test-event';
import { SECRET_NOTICE_KEPT, SECRET_NOTICE_NEW, WEBHOOK_EVENT_TYPES } from '../../../../shared/domain/webhooks';
import { ConflictError, ValidationError } from '../../../../shared/domain/errors';

const now = new Date('2026-11-27T12:00:00.000Z');
const ports = {
  checkUrl: async (url: string) =>
    url.startsWith('https://') ? { ok: true as const, url: new URL(url).toString() } : { ok: false as const, errors: ['Must use https'] },
  newSecret: () => 'whsec_new',
};

describe('configure a webhook (use case)', () => {
  it('the first configuration creates the secret and shows it once; the change carries it to be sealed', async () => {
    const { answer, changes } = await configureWebhook(ports, { accountId: 'acct_1', url: 'https://shop.example/hooks', secretConfigured: false, now });
    expect(answer).toEqual({ url: 'https://shop.example/hooks', events: WEBHOOK_EVENT_TYPES, secret: 'whsec_new', secret_notice: SECRET_NOTICE_NEW });
    expect(changes).toEqual([
      { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://shop.example/hooks', at: now.toISOString(), newSecret: 'whsec_new' },
    ]);
  });

  it('a later one keeps the secret (none shown, none in the change)', async () => {
    const { answer, changes } = await configureWebhook(ports, { accountId: 'acct_1', url: 'https://shop.example/v2', secretConfigured: true, now });
    expect(answer).toEqual({ url: 'https://shop.example/v2', events: WEBHOOK_EVENT_TYPES, secret_notice: SECRET_NOTICE_KEPT });
    expect(changes).toEqual([{ kind: 'webhook.configured', accountId: 'acct_1', url: 'https://shop.example/v2', at: now.toISOString() }]);
  });

  it('subscribes to the types named (deduplicated, in the registry order); an unknown type or an empty list is 422 on events (issue 29)', async () => {
    const { answer, changes } = await configureWebhook(ports, {
      accountId: 'acct_1',
      url: 'https://shop.example/hooks',
      events: ['pixout.paid', 'invoice.paid', 'invoice.paid'],
      secretConfigured: true,
      now,
    });
    expect(answer.events).toEqual(['invoice.paid', 'pixout.paid']);
    expect(changes).toEqual([
      { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://shop.example/hooks', at: now.toISOString(), events: ['invoice.paid', 'pixout.paid'] },
    ]);
    const unknown = configureWebhook(ports, {
      accountId: 'acct_1',
      url: 'https://shop.example/hooks',
      events: ['invoice.paid', 'invoice.exploded'],
      secretConfigured: true,
      now,
    });
    await expect(unknown).rejects.toMatchObject({ details: { fields: { events: [expect.stringContaining('invoice.exploded')] } } });
    const empty = configureWebhook(ports, { accountId: 'acct_1', url: 'https://shop.example/hooks', events: [], secretConfigured: true, now });
    await expect(empty).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses a URL the SSRF rules refuse, with 422 on url, and changes nothing', async () => {
    const refused = configureWebhook(ports, { accountId: 'acct_1', url: 'http://10.0.0.1/', secretConfigured: false, now });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ details: { fields: { url: ['Must use https'] } } });
  });

  it('rotating shows the new secret once; sending a test event records a ping, or 409 without a URL', () => {
    expect(rotateWebhookSecret(ports, { accountId: 'acct_1', now })).toEqual({
      answer: { secret: 'whsec_new', secret_notice: SECRET_NOTICE_NEW },
      changes: [{ kind: 'webhook.secret_rotated', accountId: 'acct_1', secret: 'whsec_new', at: now.toISOString() }],
    });
    const newEvent = (type: string, data: Record<string, unknown>) => ({ id: 'evt_1', type, created: 1, api_version: 'v', data });
    const sent = sendTestEvent({ newEvent }, { accountId: 'acct_1', webhookConfigured: true, now });
    expect(sent.answer).toEqual({ event_id: 'evt_1', status: 'queued' });
    expect(sent.changes).toMatchObject([{ kind: 'event.recorded', accountId: 'acct_1', event: { id: 'evt_1', type: 'ping' } }]);
    expect(() => sendTestEvent({ newEvent }, { accountId: 'acct_1', webhookConfigured: false, now })).toThrow(ConflictError);
  });
});
