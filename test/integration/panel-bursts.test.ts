import { describe, expect, it } from 'vitest';
import { FAILURES_PER_ADDRESS, FAILURES_PER_EMAIL, STEP_UP_FAILURES_PER_SESSION } from '../../shared/domain/panel/sign-in-limits';
import { RESETS_PER_EMAIL } from '../../shared/domain/panel/reset';
import { scanAll } from '../support/ledger';
import { codeFor, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';

/**
 * Issue 43, findings 3 and 4: the panel's limits under the probe's bursts. Each limit is a slot taken
 * in one conditional write before its check, so N attempts at once check at most the limit; a
 * signed-in session's step-up counts its own wrong codes only.
 */

/** A code that is not the person's authenticator's around now (so it is wrong whatever the step). */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((offset) => codeFor(secret, offset)));
  for (const candidate of ['000000', '111111', '222222', '333333']) if (!near.has(candidate)) return candidate;
  throw new Error('no wrong code found');
}

/** A sign-in form ready to post from its own address: the pre-session cookie and CSRF token of a fresh page. */
async function signInForm(): Promise<{ jar: Jar; csrf: string }> {
  const jar = new Jar();
  const page = await get(jar, '/panel/entrar');
  expect(page.status).toBe(200);
  return { jar, csrf: hidden(page.text, 'csrf_token') };
}

const count = (statuses: readonly number[], status: number) => statuses.filter((s) => s === status).length;

/**
 * The guarantee: at most `limit` attempts got past their slot (a 401, or a 503 when the busy machine's
 * request deadline ended one after its slot was taken: it counts as checked), every other one refused
 * before any check (429); nothing else.
 */
function expectAtMostChecked(statuses: readonly number[], limit: number): void {
  expect(
    statuses.every((status) => status === 401 || status === 429 || status === 503),
    statuses.join(','),
  ).toBe(true);
  expect(statuses.length - count(statuses, 429), statuses.join(',')).toBeLessThanOrEqual(limit);
  // Something was checked: a 401, or a 503 whose slot was taken (a 429 is never a check).
  expect(statuses.length - count(statuses, 429), statuses.join(',')).toBeGreaterThan(0);
}

describe('the panel limits hold under bursts (issue 43)', () => {
  it('15 wrong passwords for one e-mail at once: at most 10 are checked (401), the rest refused before any check (429)', async () => {
    const person = await enrolledPerson('viewer');
    const forms = [];
    for (let i = 0; i < 15; i += 1) forms.push(await signInForm());
    const statuses = (
      await Promise.all(
        forms.map(({ jar, csrf }) => post(jar, '/panel/entrar', { csrf_token: csrf, email: person.email, password: 'not the password at all' })),
      )
    ).map((page) => page.status);
    expectAtMostChecked(statuses, FAILURES_PER_EMAIL);
    // The right password is refused too now (the e-mail's window is full), before it is checked.
    const after = await signInForm();
    expect((await post(after.jar, '/panel/entrar', { csrf_token: after.csrf, email: person.email, password: person.password })).status).toBe(429);
  }, 120_000);

  it('40 wrong passwords at once from one address, each for another e-mail: at most 30 are checked, the rest 429', async () => {
    const address = new Jar().ip;
    const forms = [];
    for (let i = 0; i < 40; i += 1) {
      const jar = new Jar(address);
      const page = await get(jar, '/panel/entrar');
      forms.push({ jar, csrf: hidden(page.text, 'csrf_token') });
    }
    const statuses = (
      await Promise.all(
        forms.map(({ jar, csrf }, i) =>
          post(jar, '/panel/entrar', { csrf_token: csrf, email: `nobody${i}-${Date.now()}@example.com`, password: 'not the password at all' }),
        ),
      )
    ).map((page) => page.status);
    expectAtMostChecked(statuses, FAILURES_PER_ADDRESS);
  }, 120_000);

  it('after the right password, 40 wrong codes at once: at most 10 are checked (401), the rest 429', async () => {
    const person = await enrolledPerson('viewer');
    const { jar, csrf } = await signInForm();
    // The right password gives its slot back: the code step starts with the e-mail's whole allowance.
    expect((await post(jar, '/panel/entrar', { csrf_token: csrf, email: person.email, password: person.password })).status).toBe(303);
    const codePage = await get(jar, '/panel/entrar/codigo');
    const codeCsrf = hidden(codePage.text, 'csrf_token');
    const code = wrongCode(person.secret);
    const statuses = (await Promise.all(Array.from({ length: 40 }, () => post(jar, '/panel/entrar/codigo', { csrf_token: codeCsrf, code })))).map(
      (page) => page.status,
    );
    expectAtMostChecked(statuses, FAILURES_PER_EMAIL);
  }, 120_000);

  it("10 strangers' wrong passwords for a person's e-mail never lock that person's open session: step-up with a right code still works", async () => {
    const owner = await enrolledPerson('owner');
    const jar = new Jar();
    expect((await signIn(jar, owner)).status).toBe(303);
    // Ten strangers, ten addresses, no session: the e-mail's sign-in window fills.
    for (let i = 0; i < FAILURES_PER_EMAIL; i += 1) {
      const stranger = await signInForm();
      expect((await post(stranger.jar, '/panel/entrar', { csrf_token: stranger.csrf, email: owner.email, password: 'guessing the password' })).status).toBe(
        401,
      );
    }
    const locked = await signInForm();
    expect((await post(locked.jar, '/panel/entrar', { csrf_token: locked.csrf, email: owner.email, password: owner.password })).status).toBe(429);
    // The signed-in owner rotates the account's keys with a fresh code: a step-up counts only this session's own wrong codes.
    const page = await get(jar, '/panel/chaves');
    expect(page.status).toBe(200);
    const rotated = await post(jar, '/panel/chaves', { csrf_token: hidden(page.text, 'csrf_token'), code: await freshCode(owner) });
    expect(rotated.status).toBe(200);
  }, 120_000);

  it("a session's own wrong step-up codes at once: at most 10 checked, then that session is refused (429)", async () => {
    const owner = await enrolledPerson('owner');
    const jar = new Jar();
    expect((await signIn(jar, owner)).status).toBe(303);
    const page = await get(jar, '/panel/chaves');
    const csrf = hidden(page.text, 'csrf_token');
    const code = wrongCode(owner.secret);
    const statuses = (await Promise.all(Array.from({ length: 25 }, () => post(jar, '/panel/chaves', { csrf_token: csrf, code })))).map((p) => p.status);
    expectAtMostChecked(statuses, STEP_UP_FAILURES_PER_SESSION);
    // Another session of the same person is not locked by these.
    const other = new Jar();
    expect((await signIn(other, owner)).status).toBe(303);
    const otherPage = await get(other, '/panel/chaves');
    expect((await post(other, '/panel/chaves', { csrf_token: hidden(otherPage.text, 'csrf_token'), code: await freshCode(owner) })).status).toBe(200);
  }, 120_000);

  it('8 reset requests for one e-mail at once: at most 3 links are made', async () => {
    const person = await enrolledPerson('viewer');
    const forms = [];
    for (let i = 0; i < 8; i += 1) {
      const jar = new Jar();
      const page = await get(jar, '/panel/senha/esqueci');
      forms.push({ jar, csrf: hidden(page.text, 'csrf_token') });
    }
    const answers = await Promise.all(forms.map(({ jar, csrf }) => post(jar, '/panel/senha/esqueci', { csrf_token: csrf, email: person.email })));
    expect(answers.map((page) => page.status)).toEqual(answers.map(() => 200));
    const links = await scanAll({
      FilterExpression: '#t = :t AND email = :e',
      ExpressionAttributeNames: { '#t': 'type' },
      ExpressionAttributeValues: { ':t': 'panel_reset', ':e': person.email },
    });
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(RESETS_PER_EMAIL);
  }, 120_000);
});
