import { describe, expect, it } from 'vitest';
import { ROLE_FORBIDS } from '../../shared/app/panel/acting';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { bearer, call, tokenFor } from '../support/api';
import { elementText, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

describe('merchant panel: API keys with step-up, and the audit log (issue 27, spec 2.8 and 5.6)', () => {
  it('generates new keys after a fresh code: the old key and its token stop at once, the new ones work, the audit log says who', async () => {
    const owner = await enrolledPerson('owner');
    const oldToken = await tokenFor(owner.keys);
    expect((await call('GET', '/api/balance', { headers: bearer(oldToken) })).status).toBe(200);
    const jar = new Jar();
    expect((await signIn(jar, owner)).status).toBe(303);
    const page = await get(jar, '/panel/chaves');
    expect(page.status).toBe(200);
    expect(elementText(page.text, 'public-key')).toBe(owner.keys.public_key);
    expect(page.text).not.toContain(owner.keys.secret_key);
    const csrf = hidden(page.text, 'csrf_token');

    // Without its CSRF token, or with a wrong code: nothing changes.
    expect((await post(jar, '/panel/chaves', { code: '123456' })).status).toBe(403);
    const wrong = await post(jar, '/panel/chaves', { csrf_token: csrf, code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(escaped(WRONG_CODE));
    expect((await call('GET', '/api/balance', { headers: bearer(oldToken) })).status).toBe(200);

    const rotated = await post(jar, '/panel/chaves', { csrf_token: csrf, code: await freshCode(owner) });
    expect(rotated.status).toBe(200);
    const publicKey = elementText(rotated.text, 'public-key');
    const secretKey = elementText(rotated.text, 'secret-key');
    expect(publicKey).not.toBe(owner.keys.public_key);
    expect(secretKey).toMatch(/^SEC-/);
    // The old token and the old keys stop at once; the new keys work.
    expect((await call('GET', '/api/balance', { headers: bearer(oldToken) })).status).toBe(401);
    const basicOf = (pub: string, sec: string) => ({ authorization: `Basic ${Buffer.from(`${pub}:${sec}`).toString('base64')}` });
    expect((await call('POST', '/api/auth', { headers: basicOf(owner.keys.public_key, owner.keys.secret_key) })).status).toBe(401);
    const newToken = await tokenFor({ account_id: owner.accountId, public_key: publicKey, secret_key: secretKey });
    expect((await call('GET', '/api/balance', { headers: bearer(newToken) })).status).toBe(200);
    // The secret is shown once: the keys page shows the public key only.
    const after = await get(jar, '/panel/chaves');
    expect(elementText(after.text, 'public-key')).toBe(publicKey);
    expect(after.text).not.toContain(secretKey);

    const audit = await get(jar, '/panel/auditoria');
    expect(audit.status).toBe(200);
    const actions = [...audit.text.matchAll(/data-action="([^"]+)"/g)].map((m) => m[1]);
    expect(actions).toEqual(['keys.rotated', 'panel.signed_in', 'panel.enrolled']);
    expect(audit.text).toContain(owner.email);
    expect(audit.text).not.toContain(secretKey);
    // The step-up code waits for the authenticator's next step (at most 30 s).
  }, 120_000);

  it('lets a viewer read but not act: no new keys, no audit log, nothing changed', async () => {
    const viewer = await enrolledPerson('viewer');
    const token = await tokenFor(viewer.keys);
    const jar = new Jar();
    expect((await signIn(jar, viewer)).status).toBe(303);
    const page = await get(jar, '/panel/chaves');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Gerar novas chaves</button>');
    const refused = await post(jar, '/panel/chaves', { csrf_token: hidden((await get(jar, '/panel')).text, 'csrf_token'), code: '123456' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(escaped(ROLE_FORBIDS));
    expect((await call('GET', '/api/balance', { headers: bearer(token) })).status).toBe(200);
    expect((await get(jar, '/panel/auditoria')).status).toBe(403);
  });

  it('sends a browser without a session to the sign-in page', async () => {
    for (const path of ['/panel/chaves', '/panel/auditoria']) expect((await get(new Jar(), path)).location).toBe('/panel/entrar');
    expect((await post(new Jar(), '/panel/chaves', { code: '123456' })).status).toBe(403);
  });
});
