import { eventually, scanAll } from '../support/ledger';
import { describe, expect, it } from 'vitest';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { bearer, call, tokenFor } from '../support/api';
import { elementText, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

describe('merchant panel: the webhook URL and its secret, with step-up (issue 27)', () => {
  it('sets the URL as PUT /api/webhook does, shows the first secret once, rotates it; each with a fresh code, each in the audit log', async () => {
    const dev = await enrolledPerson('developer');
    const token = await tokenFor(dev.keys);
    const jar = new Jar();
    expect((await signIn(jar, dev)).status).toBe(303);
    const page = await get(jar, '/panel/webhooks');
    expect(page.status).toBe(200);
    expect(page.text).toContain('>URL do webhook</label>');
    const csrf = hidden(page.text, 'csrf_token');

    // The same SSRF rules as the API: a plain-http URL is refused on its field, nothing saved.
    const refused = await post(jar, '/panel/webhooks', { csrf_token: csrf, url: 'http://127.0.0.13/hook', code: '000000' });
    expect([401, 422]).toContain(refused.status);
    const wrongCode = await post(jar, '/panel/webhooks', { csrf_token: csrf, url: 'https://127.0.0.13:8443/panel', code: '000000' });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.text).toContain(escaped(WRONG_CODE));
    expect((await call('GET', '/api/webhook', { headers: bearer(token) })).json).toMatchObject({ webhook: { url: null } });

    const saved = await post(jar, '/panel/webhooks', { csrf_token: csrf, url: 'https://127.0.0.13:8443/panel', code: await freshCode(dev) });
    expect(saved.status).toBe(200);
    const firstSecret = elementText(saved.text, 'webhook-secret');
    expect(firstSecret).toMatch(/^whsec_/);
    expect((await call('GET', '/api/webhook', { headers: bearer(token) })).json).toMatchObject({ webhook: { url: 'https://127.0.0.13:8443/panel' } });
    // The page shows no secret afterwards.
    expect((await get(jar, '/panel/webhooks')).text).not.toContain(firstSecret);

    const rotated = await post(jar, '/panel/webhooks/segredo', { csrf_token: csrf, code: await freshCode(dev) });
    expect(rotated.status).toBe(200);
    const secondSecret = elementText(rotated.text, 'webhook-secret');
    expect(secondSecret).toMatch(/^whsec_/);
    expect(secondSecret).not.toBe(firstSecret);

    // A ping through POST /api/webhook/test's use case (no code needed: it changes nothing), then its delivery in the page.
    const ping = await post(jar, '/panel/webhooks/teste', { csrf_token: csrf });
    expect(ping.status).toBe(200);
    const eventId = /Evento de teste (evt_[A-Za-z0-9]+)/.exec(ping.text)?.[1] ?? '';
    expect(eventId).toMatch(/^evt_/);
    const listed = await eventually(
      () => get(jar, '/panel/webhooks'),
      (page) => page.text.includes(`data-event="${eventId}"`),
    );
    expect(listed.text).toContain(`<tr data-event="${eventId}"`);
    // Audited (a developer does not read the audit log: the entry is read from the table).
    const audit = await scanAll({
      FilterExpression: '#t = :t AND #a = :a AND email = :e',
      ExpressionAttributeNames: { '#t': 'type', '#a': 'action' },
      ExpressionAttributeValues: { ':t': 'panel_audit', ':a': 'webhook.test_sent', ':e': dev.email },
    });
    expect(audit.map((entry) => entry.detail)).toEqual([`evento ${eventId}`]);
  }, 120_000);

  it('lets finance and viewers read the webhook page but not change it', async () => {
    const finance = await enrolledPerson('finance');
    const jar = new Jar();
    expect((await signIn(jar, finance)).status).toBe(303);
    const page = await get(jar, '/panel/webhooks');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Salvar URL');
    expect(page.text).not.toContain('Enviar evento de teste');
    expect((await post(jar, '/panel/webhooks/teste', { csrf_token: hidden(page.text, 'csrf_token') })).status).toBe(403);
    const refused = await post(jar, '/panel/webhooks', { csrf_token: hidden(page.text, 'csrf_token'), url: 'https://127.0.0.13:8443/x', code: '123456' });
    expect(refused.status).toBe(403);
  });
});
