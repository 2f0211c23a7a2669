import { describe, expect, it } from 'vitest';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { accountStore, bearer, call, tokenFor } from '../support/api';
import { enrolledPerson, freshCode, get, hidden, Jar, post, signIn, type Enrolled } from '../support/panel';

/** The account's withdrawals and available balance as the API answers them. */
async function apiView(person: Enrolled) {
  const auth = bearer(await tokenFor(person.keys));
  const list = (await call('GET', '/api/pixout/list', { headers: auth })).json as { withdrawals: { reference: string; amount: string; status: string }[] };
  const balance = (await call('GET', '/api/balance', { headers: auth })).json as { balance: { available: string; reserved: string } };
  return { withdrawals: list.withdrawals, balance: balance.balance };
}

async function signedInWithFunds(role: string, cents: number) {
  const person = await enrolledPerson(role);
  await creditAccount(accountStore(), person.accountId, cents);
  const jar = new Jar();
  expect((await signIn(jar, person)).status).toBe(303);
  return { person, jar };
}

const form = (page: string, fields: Record<string, string>) => ({
  csrf_token: hidden(page, 'csrf_token'),
  amount: '30,00',
  keytype: 'CPF',
  pixkey: '52998224725',
  ...fields,
});

describe('merchant panel: withdrawals (issue 27)', () => {
  it('asks a Pix withdrawal with a fresh code through the API’s use case: one withdrawal for a form posted twice with one code, audited', async () => {
    const { person, jar } = await signedInWithFunds('owner', 10_000);
    const page = await get(jar, '/panel/saques');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="new-withdrawal"');

    // A wrong code: the page again with its message, nothing reserved.
    const wrong = await post(jar, '/panel/saques', form(page.text, { code: '000000' }));
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('value="52998224725"');
    // An amount that is no amount: 422 naming the field, nothing reserved (the code is not even read).
    const bad = await post(jar, '/panel/saques', form(page.text, { amount: '30,001', code: '000000' }));
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="amount-erro"');
    expect((await apiView(person)).withdrawals).toEqual([]);

    // The same form posted twice at once with one code (a double click): exactly one withdrawal.
    const code = await freshCode(person);
    const posts = await Promise.all([1, 2].map(() => post(jar, '/panel/saques', form(page.text, { code, description: 'Fornecedor' }))));
    expect(posts.map((p) => p.status).sort()).toEqual([303, 401]);
    const done = posts.find((p) => p.status === 303);
    expect(done?.location).toMatch(/^\/panel\/saques\/WD-[A-Z0-9]{12}\?novo=1$/);
    const after = await apiView(person);
    expect(after.withdrawals).toHaveLength(1);
    expect(after.withdrawals[0]).toMatchObject({ amount: '30.00', status: expect.stringMatching(/PENDING|PAID/) });
    expect(after.balance.available).toBe('70.00');

    const reference = after.withdrawals[0]?.reference ?? '';
    const detail = await get(jar, done?.location ?? '');
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(`Saque ${reference}`);
    expect(detail.text).toContain('id="notice"');
    const list = await get(jar, '/panel/saques');
    expect([...list.text.matchAll(/<tr data-reference="(WD-[A-Z0-9]{12})"/g)].map((m) => m[1])).toEqual([reference]);

    // More than the balance: 400, with the code used but nothing reserved.
    const tooMuch = await post(jar, '/panel/saques', form(page.text, { amount: '1.000,00', code: await freshCode(person) }));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain('Saldo disponível insuficiente');
    expect((await apiView(person)).withdrawals).toHaveLength(1);

    const audit = await get(jar, '/panel/auditoria');
    expect([...audit.text.matchAll(/data-action="withdrawal\.requested"/g)]).toHaveLength(1);
    expect(audit.text).toContain(reference);
  }, 180_000);

  it('answers 404 for another account’s withdrawal and a malformed reference; a viewer sees no form and cannot ask one', async () => {
    const { person: owner } = await signedInWithFunds('owner', 10_000);
    const asked = await call('POST', '/api/pixout/create', {
      headers: { ...bearer(await tokenFor(owner.keys)), 'idempotency-key': `panel-wd-${Date.now()}` },
      body: { amount: 10, pixkey: '52998224725', keytype: 'CPF' },
    });
    expect(asked.status).toBe(200);
    const path = `/panel/saques/${(asked.json as { withdraw: { reference: string } }).withdraw.reference}`;
    expect((await get(new Jar(), path)).status).toBe(303);

    const { person: viewer, jar } = await signedInWithFunds('viewer', 10_000);
    expect((await get(jar, path)).status).toBe(404);
    expect((await get(jar, '/panel/saques/WD-NOTAREFERENC')).status).toBe(404);
    expect((await get(jar, '/panel/saques/qualquer')).status).toBe(404);

    const page = await get(jar, '/panel/saques');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="new-withdrawal"');
    // The role is checked before the code: refused whatever code it brings.
    const refused = await post(jar, '/panel/saques', form(page.text, { code: '123456' }));
    expect(refused.status).toBe(403);
    expect((await apiView(viewer)).withdrawals).toEqual([]);
    expect((await apiView(viewer)).balance.available).toBe('100.00');
  }, 180_000);
});
