import { describe, expect, it } from 'vitest';
import { admin, bearer, call, tokenFor } from '../support/api';
import { cardBody, common, createCharge } from '../support/charges';
import { customerBody, fullAddress } from '../support/customers';
import { eventually } from '../support/ledger';
import { brazilDate } from '../../shared/domain/brazil-dates';
import { notification, notify } from '../support/provider';
import { enrolledPerson, get, Jar, signIn } from '../support/panel';
import { PAYMENT_METHODS } from '../../shared/domain/payment-methods';

describe("merchant panel: the overview, the account's customers and payment methods (issue 27)", () => {
  it("lists the account's customers through GET /api/customers' own use case, with its filters", async () => {
    const viewer = await enrolledPerson('viewer');
    const token = await tokenFor(viewer.keys);
    const names = [`Maria Panel ${Date.now()}`, `João Panel ${Date.now()}`];
    for (const name of names)
      expect((await call('POST', '/api/customer', { headers: bearer(token), body: { ...customerBody(fullAddress()), name } })).status).toBe(200);
    const jar = new Jar();
    expect((await signIn(jar, viewer)).status).toBe(303);
    const all = await get(jar, '/panel/clientes');
    expect(all.status).toBe(200);
    const rows = [...all.text.matchAll(/<tr><td><a href="\/panel\/clientes\/\d+">\d+<\/a><\/td><td>([^<]+)<\/td>/g)].map((m) => m[1]);
    // Newest first, as the API lists them.
    expect(rows).toEqual([...names].reverse());
    const filtered = await get(jar, `/panel/clientes?name=${encodeURIComponent('maria panel')}`);
    expect([...filtered.text.matchAll(/<tr><td><a href="\/panel\/clientes\/\d+">\d+<\/a><\/td><td>([^<]+)<\/td>/g)].map((m) => m[1])).toEqual([names[0]]);
    // Each row opens the customer's page (GET /api/customer/{id}'s read); unknown or malformed ids are a 404.
    const id = /<tr><td><a href="\/panel\/clientes\/(\d+)">/.exec(all.text)?.[1] ?? '';
    const detail = await get(jar, `/panel/clientes/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(`<h1>${names[1]}</h1>`);
    for (const path of ['/panel/clientes/1', '/panel/clientes/abc']) expect((await get(jar, path)).status, path).toBe(404);
    // A malformed page number is the 422 page naming the field.
    const bad = await get(jar, '/panel/clientes?page=zero');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('data-field="page"');
    // A filter named twice is read as API Gateway hands it over (the values joined by a comma), as the
    // pipeline validated it: never the page's own second reading (which found an empty value: a 500).
    const twice = await get(jar, '/panel/clientes?phone=&phone=');
    expect(twice.status).toBe(200);
    expect(twice.text).not.toContain('<tr><td>');
  });

  it("shows the balance and today's and this month's payments per method, as the ledger recorded them (a pending charge is no payment)", async () => {
    const viewer = await enrolledPerson('viewer');
    const auth = bearer(await tokenFor(viewer.keys));
    const jar = new Jar();
    expect((await signIn(jar, viewer)).status).toBe(303);
    expect((await get(jar, '/panel')).text).toContain('id="no-payments"');

    const startedAt = new Date();
    const charge = (amount: number) => common({ amount, quantity: 1, tax: 0, discount: 0 });
    const pix = [await createCharge('pix', auth, charge(10.5)), await createCharge('pix', auth, charge(20))];
    await createCharge('pix', auth, charge(99));
    for (const paid of pix) expect((await notify(notification('pix-paid', { txid: String(paid.invoice.txid) }))).status).toBe(200);
    const card = await createCharge('creditcard', auth, { ...cardBody(), ...charge(7.25) });
    expect(card.invoice.status).toBe('PAID');

    const page = await eventually(
      () => get(jar, '/panel'),
      (p) => p.text.includes('data-method="creditcard"') && p.text.includes('2 · R$'),
    );
    expect(page.status).toBe(200);
    const row = (method: string) =>
      new RegExp(`<tr data-method="${method}"><th scope="row">[^<]+</th><td>([^<]+)</td><td>([^<]+)</td></tr>`)
        .exec(page.text)
        ?.slice(1)
        .map((cell) => cell.replace(/\u00a0/g, ' '));
    expect(page.text).not.toContain('data-method="boleto"');
    // Days are Brasília's: across midnight the payments are this month's but not today's (asserted only within one day).
    if (brazilDate(startedAt) === brazilDate(new Date())) {
      expect(row('pix')).toEqual(['2 · R$ 30,50', '2 · R$ 30,50']);
      expect(row('creditcard')).toEqual(['1 · R$ 7,25', '1 · R$ 7,25']);
    } else {
      // Past midnight (or a month's end) the sums moved to yesterday's column: only the page itself is checked.
      expect(page.text).toContain('<h2>Pagamentos</h2>');
    }
  }, 60_000);

  it('shows which payment methods the operator enabled', async () => {
    const owner = await enrolledPerson('owner');
    expect((await admin('account', 'set-methods', '--account', owner.accountId, '--methods', 'pix')).code).toBe(0);
    const jar = new Jar();
    expect((await signIn(jar, owner)).status).toBe(303);
    const page = await get(jar, '/panel/metodos');
    expect(page.status).toBe(200);
    const methods = Object.fromEntries([...page.text.matchAll(/data-method="(\w+)">[^<]*<strong>(\w+)<\/strong>/g)].map((m) => [m[1], m[2]]));
    expect(methods).toEqual(Object.fromEntries(PAYMENT_METHODS.map((method) => [method, method === 'pix' ? 'habilitado' : 'desabilitado'])));
  });
});
