import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys';
import { addressKey } from '../../shared/domain/client-address';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../../shared/http/edge-origin';
import { csrfTokenFor, PRE_SESSION_COOKIE, SESSION_COOKIE } from '../../shared/http/panel/cookies';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { invokeRoute } from '../support/invoke-route';
import { WRONG_CODE, WRONG_CREDENTIALS } from '../../shared/app/panel/sign-in';
import { readFileSync } from 'node:fs';
import { admin, stack, useLocalStackEnvironment } from '../support/api';
import { stackLogFile } from '../support/leak-sources';
import { eventually } from '../support/ledger';
import { codeFor, elementText, enrolledPerson, get, hidden, Jar, post, signIn } from '../support/panel';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

describe('merchant panel: invite, enrollment, sign-in with the code (issue 27)', () => {
  it('enrolls an invited person with a password and an authenticator, once', async () => {
    const account = (await admin('account', 'create', '--name', 'Padaria')).json as { account_id: string };
    const invite = (await admin('panel', 'invite', '--account', account.account_id, '--email', 'ana.enroll@example.com', '--role', 'owner')).json as {
      invite_url: string;
    };
    const path = new URL(invite.invite_url).pathname;
    const jar = new Jar();
    const page = await get(jar, path);
    expect(page.status).toBe(200);
    for (const label of ['Senha', 'Confirme a senha', 'Código de verificação']) expect(page.text).toContain(`>${label}</label>`);
    expect(page.text).toContain('ana.enroll@example.com');
    const secret = elementText(page.text, 'totp-secret');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(elementText(page.text, 'otpauth-uri')).toContain(`secret=${secret}`);
    expect(page.text).toContain('src="data:image/png;base64,');
    expect(jar.get(PRE_SESSION_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const form = { csrf_token: hidden(page.text, 'csrf_token'), enrollment: hidden(page.text, 'enrollment') };

    // Without its CSRF token the form changes nothing: the invite still works.
    const forged = await post(jar, path, {
      ...form,
      csrf_token: 'x'.repeat(32),
      password: 'uma frase longa e boa 2026',
      confirmation: 'uma frase longa e boa 2026',
      code: codeFor(secret),
    });
    expect(forged.status).toBe(403);
    expect((await get(new Jar(), path)).status).toBe(200);

    // A common password, a confirmation that differs, a wrong code: the page again (422), nothing stored.
    const weak = await post(jar, path, { ...form, password: 'password1234', confirmation: 'password1234', code: codeFor(secret) });
    expect(weak.status).toBe(422);
    expect(weak.text).toContain(escaped('Esta senha é comum demais; escolha outra.'));
    expect(elementText(weak.text, 'totp-secret')).toBe(secret);
    const wrongCode = await post(jar, path, {
      ...form,
      password: 'uma frase longa e boa 2026',
      confirmation: 'uma frase longa e boa 2026',
      code: '000000' === codeFor(secret) ? '111111' : '000000',
    });
    expect(wrongCode.status).toBe(422);

    const done = await post(jar, path, { ...form, password: 'uma frase longa e boa 2026', confirmation: 'uma frase longa e boa 2026', code: codeFor(secret) });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/panel/entrar?pronto=1');
    // The link works once.
    expect((await get(new Jar(), path)).status).toBe(404);
    const again = await admin('panel', 'invite', '--account', account.account_id, '--email', 'ana.enroll@example.com', '--role', 'viewer');
    expect(again.code).toBe(1);
  });

  it("refuses at enrollment a password past 128 characters (never cut) and one made of the account's name; a longer password never signs in as the one it starts with (issue 43)", async () => {
    const account = (await admin('account', 'create', '--name', 'Confeitaria Doce Sabor')).json as { account_id: string };
    const email = `longa${Date.now()}@example.com`;
    const invite = (await admin('panel', 'invite', '--account', account.account_id, '--email', email, '--role', 'owner')).json as { invite_url: string };
    const path = new URL(invite.invite_url).pathname;
    const jar = new Jar();
    const page = await get(jar, path);
    const secret = elementText(page.text, 'totp-secret');
    const form = { csrf_token: hidden(page.text, 'csrf_token'), enrollment: hidden(page.text, 'enrollment') };
    const longest = randomBytes(96).toString('base64url');
    expect(longest).toHaveLength(128);

    // 129 characters: refused with the ceiling's message (it was cut to its first 128 and accepted).
    const tooLong = await post(jar, path, { ...form, password: `${longest}x`, confirmation: `${longest}x`, code: codeFor(secret) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.text).toContain(escaped('A senha pode ter no máximo 128 caracteres.'));
    // The account's name (and without its accents and spaces): refused as easy to guess.
    for (const password of ['Confeitaria Doce Sabor', 'confeitariadocesabor']) {
      const named = await post(jar, path, { ...form, password, confirmation: password, code: codeFor(secret) });
      expect(named.status, password).toBe(422);
      expect(named.text).toContain(escaped('Esta senha é fácil de adivinhar;'));
    }

    const done = await post(jar, path, { ...form, password: longest, confirmation: longest, code: codeFor(secret) });
    expect(done.status).toBe(303);
    // The 128 characters and one more: a wrong password (never cut to the stored one), then the right one.
    const signInPage = await get(jar, '/panel/entrar');
    const csrf = hidden(signInPage.text, 'csrf_token');
    const longer = await post(jar, '/panel/entrar', { csrf_token: csrf, email, password: `${longest}x` });
    expect(longer.status).toBe(401);
    expect(longer.text).toContain(escaped(WRONG_CREDENTIALS));
    const right = await post(jar, '/panel/entrar', { csrf_token: csrf, email, password: longest });
    expect([right.status, right.location]).toEqual([303, '/panel/entrar/codigo']);
  });

  it('signs in with the password, then a code not used before, under a new session id', async () => {
    const person = await enrolledPerson();
    const jar = new Jar();
    const first = await get(jar, '/panel/entrar');
    expect(first.status).toBe(200);
    for (const label of ['E-mail', 'Senha']) expect(first.text).toContain(`>${label}</label>`);
    const passwordStep = await post(jar, '/panel/entrar', {
      csrf_token: hidden(first.text, 'csrf_token'),
      email: person.email.toUpperCase(),
      password: person.password,
    });
    expect(passwordStep.status).toBe(303);
    expect(passwordStep.location).toBe('/panel/entrar/codigo');
    const codeStage = jar.get(SESSION_COOKIE);
    expect(codeStage).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The code stage opens nothing.
    expect((await get(jar, '/panel')).location).toBe('/panel/entrar');

    const codePage = await get(jar, '/panel/entrar/codigo');
    expect(codePage.status).toBe(200);
    const csrf = hidden(codePage.text, 'csrf_token');
    // The enrollment's code was used: refused, as a wrong one is.
    const replayed = await post(jar, '/panel/entrar/codigo', { csrf_token: csrf, code: person.enrollCode });
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain(escaped(WRONG_CODE));
    const signedIn = await post(jar, '/panel/entrar/codigo', { csrf_token: csrf, code: codeFor(person.secret, 1) });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/panel');
    expect(jar.get(SESSION_COOKIE)).not.toBe(codeStage);

    const overview = await get(jar, '/panel');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Saldo disponível');
    expect(overview.text).toContain('R$ 0,00');
    // The code stage's id does not open the panel.
    const old = new Jar();
    old.take({ 'set-cookie': [`${SESSION_COOKIE}=${codeStage}; Path=/`] });
    expect((await get(old, '/panel')).location).toBe('/panel/entrar');

    // The same code again, in another sign-in: used once.
    const other = new Jar();
    const page = await get(other, '/panel/entrar');
    await post(other, '/panel/entrar', { csrf_token: hidden(page.text, 'csrf_token'), email: person.email, password: person.password });
    const otherCode = await get(other, '/panel/entrar/codigo');
    expect((await post(other, '/panel/entrar/codigo', { csrf_token: hidden(otherCode.text, 'csrf_token'), code: codeFor(person.secret, 1) })).status).toBe(401);

    // Sign-out needs its CSRF token; then the session is over.
    expect((await post(jar, '/panel/sair', { csrf_token: 'y'.repeat(32) })).status).toBe(403);
    expect((await get(jar, '/panel')).status).toBe(200);
    const out = await post(jar, '/panel/sair', { csrf_token: hidden(overview.text, 'csrf_token') });
    expect(out.status).toBe(303);
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    expect((await get(jar, '/panel')).location).toBe('/panel/entrar');
  });

  it('answers an unknown e-mail as a wrong password, and refuses the 11th attempt even with the right password', async () => {
    const person = await enrolledPerson();
    const jar = new Jar();
    const page = await get(jar, '/panel/entrar');
    const csrf = hidden(page.text, 'csrf_token');
    const unknown = await post(jar, '/panel/entrar', { csrf_token: csrf, email: 'ninguem@example.com', password: 'qualquer coisa longa' });
    const wrong = await post(jar, '/panel/entrar', { csrf_token: csrf, email: person.email, password: 'senha errada mas longa' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.text).toContain(WRONG_CREDENTIALS);
    expect(wrong.text.replace(person.email, 'X')).toBe(unknown.text.replace('ninguem@example.com', 'X'));
    for (let i = 2; i <= 10; i += 1)
      expect((await post(jar, '/panel/entrar', { csrf_token: csrf, email: person.email, password: `errada numero ${i} longa` })).status).toBe(401);
    const eleventh = await post(jar, '/panel/entrar', { csrf_token: csrf, email: person.email, password: person.password });
    expect(eleventh.status).toBe(429);
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses a sign-in form posted without its CSRF token, or from another browser', async () => {
    const person = await enrolledPerson();
    const jar = new Jar();
    const page = await get(jar, '/panel/entrar');
    expect((await post(jar, '/panel/entrar', { email: person.email, password: person.password })).status).toBe(403);
    const stranger = new Jar();
    expect(
      (await post(stranger, '/panel/entrar', { csrf_token: hidden(page.text, 'csrf_token'), email: person.email, password: person.password })).status,
    ).toBe(403);
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    expect(stranger.get(SESSION_COOKIE)).toBeUndefined();
    expect((await signIn(jar, person)).status).toBe(303);
  });

  it('writes no password, code, session id, invite token or authenticator secret to a log line', async () => {
    const log = stackLogFile(stack().port);
    const from = readFileSync(log, 'utf8').length;
    const account = (await admin('account', 'create', '--name', 'Logs')).json as { account_id: string };
    const invite = (await admin('panel', 'invite', '--account', account.account_id, '--email', `logs${Date.now()}@example.com`, '--role', 'owner')).json as {
      invite_url: string;
      email: string;
    };
    const path = new URL(invite.invite_url).pathname;
    const token = path.split('/').pop() ?? '';
    const jar = new Jar();
    const page = await get(jar, path);
    const secret = elementText(page.text, 'totp-secret');
    const password = `segredo que nao vaza ${Date.now()}`;
    const enrollCode = codeFor(secret);
    const form = { csrf_token: hidden(page.text, 'csrf_token'), enrollment: hidden(page.text, 'enrollment') };
    // A refused form too (its password and code were read), then the accepted one.
    await post(jar, path, { ...form, password, confirmation: `${password}!`, code: enrollCode });
    expect((await post(jar, path, { ...form, password, confirmation: password, code: enrollCode })).status).toBe(303);
    const signInPage = await get(jar, '/panel/entrar');
    await post(jar, '/panel/entrar', { csrf_token: hidden(signInPage.text, 'csrf_token'), email: invite.email, password: `${password}x` });
    await post(jar, '/panel/entrar', { csrf_token: hidden(signInPage.text, 'csrf_token'), email: invite.email, password });
    const codeStage = jar.get(SESSION_COOKIE) ?? '';
    const codePage = await get(jar, '/panel/entrar/codigo');
    const code = codeFor(secret, 1);
    expect((await post(jar, '/panel/entrar/codigo', { csrf_token: hidden(codePage.text, 'csrf_token'), code })).status).toBe(303);
    const session = jar.get(SESSION_COOKIE) ?? '';
    await get(jar, '/panel');
    // The panel's own request lines are there to search (each names its route, not its path); the
    // stack's process writes its log on its own time, so the last lines may come a moment later.
    const routes = ['PanelInvitePage', 'PanelAcceptInvite', 'PanelSignIn', 'PanelCode', 'PanelOverview'];
    const lines = await eventually(
      () => readFileSync(log, 'utf8').slice(from),
      (text) => routes.every((route) => text.includes(`"route":"${route}"`)),
      10_000,
    );
    for (const route of routes) expect(lines, route).toContain(`"route":"${route}"`);
    const secrets: Record<string, string> = {
      password,
      'authenticator secret': secret,
      'invite token': token,
      'code-stage session id': codeStage,
      'session id': session,
      'pre-session cookie': jar.get(PRE_SESSION_COOKIE) ?? '',
      'CSRF token': hidden(codePage.text, 'csrf_token'),
    };
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThan(5);
      expect(lines.includes(value), `${what} in the stack's log`).toBe(false);
    }
    // A 6-digit code is found only as itself in a field: no log line carries a code field.
    expect(/"code"\s*:\s*"\d{6}"/.test(lines)).toBe(false);
  });

  it("counts sign-in failures under the viewer's address the edge named, not the address API Gateway saw (the deployed stack); an IPv6 viewer under its /64", async () => {
    useLocalStackEnvironment();
    const person = await enrolledPerson();
    const base = getRuntime();
    const secret = randomBytes(32).toString('hex');
    const viewer = `198.51.100.${1 + (Date.now() % 250)}`;
    const pre = randomBytes(32).toString('base64url');
    const { panel } = await base.serviceKeys();
    // An IPv6 viewer counts under its /64 (issue 43): two of its addresses, one counter.
    const subnet = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const wrongFrom = async (address: string) =>
      (
        await invokeRoute(routes.panelSignIn, {
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `${PRE_SESSION_COOKIE}=${pre}`,
            [EDGE_ORIGIN_HEADER]: secret,
            [EDGE_CLIENT_IP_HEADER]: address,
          },
          body: new URLSearchParams({ csrf_token: csrfTokenFor(panel, pre), email: person.email, password: 'not the password at all' }).toString(),
        })
      ).status;
    overrideRuntime({ edgeSecret: async () => secret });
    try {
      expect(await wrongFrom(viewer)).toBe(401);
      expect(await wrongFrom(`${subnet}:1:2:3:4`)).toBe(401);
      expect(await wrongFrom(`${subnet}:a:b:c:d`)).toBe(401);
    } finally {
      overrideRuntime({ edgeSecret: base.edgeSecret });
    }
    // The slots the wrong passwords kept in the e-mail's and the addresses' logs (issue 43: shared/domain/panel/sign-in-limits.ts).
    const failures = async (kind: string, id: string) =>
      Object.keys(
        ((await base.db.send(new GetCommand({ TableName: base.config.tableName, Key: keys.panelLimit(kind, id), ConsistentRead: true }))).Item?.slots ??
          {}) as object,
      ).length;
    expect(await failures('signin-address', viewer)).toBe(1);
    expect(await failures('signin-address', addressKey(`${subnet}::1`))).toBe(2);
    expect(await failures('signin-address', `${subnet}:1:2:3:4`)).toBe(0);
    expect(await failures('signin-email', person.email)).toBe(3);
  });
});
