import { describe, expect, it } from 'vitest';
import { SIGN_IN_AGAIN } from '../../shared/app/panel/sign-in';
import { admin } from '../support/api';
import { codeFor, type Enrolled, elementText, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';
import { nextCode } from '../support/totp-clock';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

/** The password step of a sign-in, the code left for later: the jar holds the code-stage session. */
async function passwordStepOnly(person: Enrolled): Promise<{ jar: Jar; csrf: string }> {
  const jar = new Jar();
  const page = await get(jar, '/panel/entrar');
  expect((await post(jar, '/panel/entrar', { csrf_token: hidden(page.text, 'csrf_token'), email: person.email, password: person.password })).status).toBe(303);
  const codePage = await get(jar, '/panel/entrar/codigo');
  expect(codePage.status).toBe(200);
  return { jar, csrf: hidden(codePage.text, 'csrf_token') };
}

describe('merchant panel: the person’s own security page (issue 27)', () => {
  it('lists the open sessions; "sign out everywhere" ends them all at once, this one too', async () => {
    const person = await enrolledPerson('viewer');
    const [laptop, phone] = [new Jar(), new Jar()];
    expect((await signIn(laptop, person)).status).toBe(303);
    expect((await signIn(phone, person)).status).toBe(303);
    const page = await get(laptop, '/panel/seguranca');
    expect(page.status).toBe(200);
    expect(page.text.match(/<tr data-session="current">/g)).toHaveLength(1);
    expect(page.text).toContain(laptop.ip);

    const ended = await post(laptop, '/panel/seguranca/sessoes', { csrf_token: hidden(page.text, 'csrf_token') });
    expect([ended.status, ended.location]).toEqual([303, '/panel/entrar']);
    // The other browser's session is refused on its next page, though its cookie is still there.
    expect((await get(phone, '/panel')).location).toBe('/panel/entrar');
    expect((await get(laptop, '/panel')).location).toBe('/panel/entrar');
    // A new sign-in works, and the action is in the audit log of the account (read by its owner elsewhere: here, the item exists).
    const again = new Jar();
    expect((await signIn(again, person)).status).toBe(303);
    expect((await get(again, '/panel')).status).toBe(200);
  }, 180_000);

  it('changes the password with the current one: a wrong current one or a weak new one changes nothing; then every session ends and only the new one signs in', async () => {
    const person = await enrolledPerson('owner');
    const [here, elsewhere] = [new Jar(), new Jar()];
    expect((await signIn(here, person)).status).toBe(303);
    expect((await signIn(elsewhere, person)).status).toBe(303);
    const csrf = hidden((await get(here, '/panel/seguranca')).text, 'csrf_token');
    const next = `outra frase bem longa ${Date.now()}`;

    const wrong = await post(here, '/panel/seguranca/senha', { csrf_token: csrf, current: 'nao e a senha atual', password: next, confirmation: next });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('id="current-password-erro"');
    const weak = await post(here, '/panel/seguranca/senha', { csrf_token: csrf, current: person.password, password: 'curta', confirmation: 'curta' });
    expect(weak.status).toBe(422);
    expect(weak.text).toContain('id="new-password-erro"');
    // Past 128 characters: refused, not cut (issue 43); the account's name: easy to guess.
    const tooLong = `${next}${'x'.repeat(129)}`;
    const long = await post(here, '/panel/seguranca/senha', { csrf_token: csrf, current: person.password, password: tooLong, confirmation: tooLong });
    expect(long.status).toBe(422);
    expect(long.text).toContain(escaped('A senha pode ter no máximo 128 caracteres.'));
    const named = await post(here, '/panel/seguranca/senha', {
      csrf_token: csrf,
      current: person.password,
      password: 'Loja do Painel',
      confirmation: 'Loja do Painel',
    });
    expect(named.status).toBe(422);
    expect(named.text).toContain(escaped('Esta senha é fácil de adivinhar;'));
    expect((await get(elsewhere, '/panel')).status).toBe(200);

    const changed = await post(here, '/panel/seguranca/senha', { csrf_token: csrf, current: person.password, password: next, confirmation: next });
    expect([changed.status, changed.location]).toEqual([303, '/panel/entrar']);
    expect((await get(elsewhere, '/panel')).location).toBe('/panel/entrar');

    // The old password no longer signs in; the new one does.
    const jar = new Jar();
    const form = await get(jar, '/panel/entrar');
    expect((await post(jar, '/panel/entrar', { csrf_token: hidden(form.text, 'csrf_token'), email: person.email, password: person.password })).status).toBe(
      401,
    );
    expect((await signIn(jar, { ...person, password: next })).status).toBe(303);
    const audit = await get(jar, '/panel/auditoria');
    expect(audit.text).toContain('data-action="panel.password_changed"');
  }, 180_000);

  it('replaces the authenticator: a fresh code of the current one, then a code of the new one; the old one no longer signs in', async () => {
    const person = await enrolledPerson('developer');
    const jar = new Jar();
    expect((await signIn(jar, person)).status).toBe(303);
    const csrf = hidden((await get(jar, '/panel/seguranca')).text, 'csrf_token');
    expect((await post(jar, '/panel/seguranca/autenticador', { csrf_token: csrf, code: '000000' })).status).toBe(401);
    const started = await post(jar, '/panel/seguranca/autenticador', { csrf_token: csrf, code: await freshCode(person) });
    expect(started.status).toBe(200);
    const secret = elementText(started.text, 'totp-secret');
    expect(secret).not.toBe(person.secret);
    const enrollment = hidden(started.text, 'enrollment');
    // A code of the old authenticator does not confirm the new one; nothing changed.
    const wrong = await post(jar, '/panel/seguranca/autenticador/confirmar', { csrf_token: csrf, enrollment, code: codeFor(person.secret) });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('data-field="code"');
    // The new authenticator's own clock (test/support/totp-clock.ts): its current step.
    const { code: first, step } = nextCode(secret, undefined);
    const done = await post(jar, '/panel/seguranca/autenticador/confirmar', { csrf_token: csrf, enrollment, code: first });
    expect(done.status).toBe(200);
    expect(done.text).toContain('id="notice"');
    // The sealed request works once: it was for the authenticator it replaced, so it no longer opens (422).
    expect((await post(jar, '/panel/seguranca/autenticador/confirmar', { csrf_token: csrf, enrollment, code: nextCode(secret, step).code })).status).toBe(422);

    // Signing in: the old authenticator's code is refused, the new one's accepted.
    const old = { ...person };
    const fresh = new Jar();
    const form = await get(fresh, '/panel/entrar');
    expect((await post(fresh, '/panel/entrar', { csrf_token: hidden(form.text, 'csrf_token'), email: person.email, password: person.password })).status).toBe(
      303,
    );
    const codePage = await get(fresh, '/panel/entrar/codigo');
    expect((await post(fresh, '/panel/entrar/codigo', { csrf_token: hidden(codePage.text, 'csrf_token'), code: await freshCode(old) })).status).toBe(401);
    // Replacing the authenticator recorded the new one's step as the last used.
    const renewed = { ...person, secret, lastStep: step };
    expect((await signIn(new Jar(), renewed)).status).toBe(303);
  }, 240_000);

  it('a sign-in begun before "sign out everywhere", a new password or a reset cannot be finished with a code afterwards (issue 43)', async () => {
    const [everywhere, changed, reset] = await Promise.all([enrolledPerson('viewer'), enrolledPerson('admin'), enrolledPerson('finance')]);
    const next = `outra frase bem longa ${Date.now()}`;
    const scenarios: [Enrolled, (pending: { jar: Jar; csrf: string }) => Promise<void>][] = [
      [
        everywhere,
        async () => {
          const jar = new Jar();
          expect((await signIn(jar, everywhere)).status).toBe(303);
          const page = await get(jar, '/panel/seguranca');
          expect((await post(jar, '/panel/seguranca/sessoes', { csrf_token: hidden(page.text, 'csrf_token') })).location).toBe('/panel/entrar');
        },
      ],
      [
        changed,
        async () => {
          const jar = new Jar();
          expect((await signIn(jar, changed)).status).toBe(303);
          const page = await get(jar, '/panel/seguranca');
          const done = await post(jar, '/panel/seguranca/senha', {
            csrf_token: hidden(page.text, 'csrf_token'),
            current: changed.password,
            password: next,
            confirmation: next,
          });
          expect(done.location).toBe('/panel/entrar');
          changed.password = next;
        },
      ],
      [
        reset,
        async () => {
          const link = (await admin('panel', 'reset', '--email', reset.email)).json as { reset_url: string };
          const path = new URL(link.reset_url).pathname;
          const jar = new Jar();
          const page = await get(jar, path);
          const saved = await post(jar, path, {
            csrf_token: hidden(page.text, 'csrf_token'),
            password: next,
            confirmation: next,
            code: await freshCode(reset),
          });
          expect(saved.status).toBe(200);
          reset.password = next;
        },
      ],
    ];
    await Promise.all(
      scenarios.map(async ([person, end]) => {
        const pending = await passwordStepOnly(person);
        await end(pending);
        // A right code, never used: the half-finished sign-in is over all the same (its code stage began before).
        const refused = await post(pending.jar, '/panel/entrar/codigo', { csrf_token: pending.csrf, code: await freshCode(person) });
        expect(refused.status, person.email).toBe(401);
        expect(refused.text).toContain(escaped(SIGN_IN_AGAIN));
        expect((await get(pending.jar, '/panel')).location).toBe('/panel/entrar');
        // A sign-in begun afterwards (with the password now in force) goes through.
        expect((await signIn(new Jar(), person)).status).toBe(303);
      }),
    );
  }, 180_000);
});
