import { describe, expect, it } from 'vitest';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { RESET_ASKED } from '../../shared/pages/panel/recovery-pages';
import { admin } from '../support/api';
import { scanAll } from '../support/ledger';
import { eventuallyMailTo, mailTo } from '../support/mail';
import { enrolledPerson, freshCode, get, hidden, Jar, post } from '../support/panel';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
const linkIn = (text: string | undefined) => /https?:\/\/\S+\/panel\/senha\/redefinir\/[A-Za-z0-9_-]{43}/.exec(text ?? '')?.[0] ?? '';

/** The reset links stored for an e-mail (each is queued with its mail in one write). */
const resetsOf = async (email: string) =>
  scanAll({
    FilterExpression: '#t = :t AND email = :e',
    ExpressionAttributeNames: { '#t': 'type' },
    ExpressionAttributeValues: { ':t': 'panel_reset', ':e': email },
  });

async function askReset(email: string, jar = new Jar()) {
  const page = await get(jar, '/panel/senha/esqueci');
  expect(page.status).toBe(200);
  return post(jar, '/panel/senha/esqueci', { csrf_token: hidden(page.text, 'csrf_token'), email });
}

describe('merchant panel: a forgotten password (issue 27)', () => {
  it('mails a reset link (the same answer for an unknown e-mail); the link takes a new password with a code, once; every session ends; the old password stops', async () => {
    const person = await enrolledPerson('admin');
    const signInWith = async (password: string) => {
      const jar = new Jar();
      const page = await get(jar, '/panel/entrar');
      expect(page.text).toContain('href="/panel/senha/esqueci"');
      return post(jar, '/panel/entrar', { csrf_token: hidden(page.text, 'csrf_token'), email: person.email, password });
    };

    const asked = await askReset(person.email.toUpperCase());
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(escaped(RESET_ASKED));
    const stranger = `ninguem${Date.now()}@example.com`;
    const unknown = await askReset(stranger);
    expect([unknown.status, unknown.text.includes(escaped(RESET_ASKED))]).toEqual([200, true]);
    expect(await resetsOf(stranger)).toEqual([]);

    const mails = await eventuallyMailTo(person.email, 2);
    const resetMail = mails.find((m) => m.subject === 'Redefinição de senha do painel');
    const link = linkIn(resetMail?.text);
    expect(link).not.toBe('');
    const path = new URL(link).pathname;

    const jar = new Jar();
    const page = await get(jar, path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(person.email);
    const csrf = hidden(page.text, 'csrf_token');
    const fresh = `outra frase longa e nova ${Date.now()}`;
    // The policy first (nothing used), then the code (a wrong one counted, nothing changed).
    expect((await post(jar, path, { csrf_token: csrf, password: 'curta', confirmation: 'curta', code: '000000' })).status).toBe(422);
    // Past 128 characters: refused, not cut (issue 43); the account's name: easy to guess.
    const tooLong = `${fresh}${'x'.repeat(129)}`;
    const long = await post(jar, path, { csrf_token: csrf, password: tooLong, confirmation: tooLong, code: '000000' });
    expect(long.status).toBe(422);
    expect(long.text).toContain(escaped('A senha pode ter no máximo 128 caracteres.'));
    const named = await post(jar, path, { csrf_token: csrf, password: 'Loja do Painel', confirmation: 'Loja do Painel', code: '000000' });
    expect(named.status).toBe(422);
    expect(named.text).toContain(escaped('Esta senha é fácil de adivinhar;'));
    const wrong = await post(jar, path, { csrf_token: csrf, password: fresh, confirmation: fresh, code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(escaped(WRONG_CODE));
    expect((await signInWith(person.password)).status).toBe(303);

    const saved = await post(jar, path, { csrf_token: csrf, password: fresh, confirmation: fresh, code: await freshCode(person) });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Senha nova salva');
    // Once: the link no longer opens; the old password is refused, the new one goes on to the code.
    expect((await get(new Jar(), path)).status).toBe(404);
    expect((await signInWith(person.password)).status).toBe(401);
    expect((await signInWith(fresh)).status).toBe(303);
    const audit = await scanAll({
      FilterExpression: '#t = :t AND email = :e',
      ExpressionAttributeNames: { '#t': 'type' },
      ExpressionAttributeValues: { ':t': 'panel_audit', ':e': person.email },
    });
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['panel.password_reset_requested', 'panel.password_reset']));
  }, 120_000);

  it('mails at most 3 links per e-mail in 15 minutes (the answer stays the same); the operator reissues one with panel reset', async () => {
    const person = await enrolledPerson('viewer');
    for (let i = 0; i < 4; i += 1) expect((await askReset(person.email)).text).toContain(escaped(RESET_ASKED));
    expect(await resetsOf(person.email)).toHaveLength(3);

    const reissued = await admin('panel', 'reset', '--email', person.email);
    expect(reissued.code, reissued.stderr).toBe(0);
    const answer = reissued.json as { email: string; reset_url: string; expires_at: string };
    expect(Object.keys(answer).sort()).toEqual(['email', 'expires_at', 'reset_url']);
    expect(answer.email).toBe(person.email);
    expect(Date.parse(answer.expires_at) - Date.now()).toBeGreaterThan(55 * 60 * 1000);
    expect(await resetsOf(person.email)).toHaveLength(4);
    const mails = await eventuallyMailTo(person.email, 5);
    expect(mails.some((m) => m.text.includes(answer.reset_url))).toBe(true);
    expect((await get(new Jar(), new URL(answer.reset_url).pathname)).status).toBe(200);

    const nobody = await admin('panel', 'reset', '--email', `ninguem${Date.now()}@example.com`);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('No person signs in to the panel with this e-mail');
    expect(mailTo(person.email).length).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
