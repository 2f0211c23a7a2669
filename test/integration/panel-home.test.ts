import { describe, expect, it } from 'vitest';
import { admin, bearer, call, tokenFor } from '../support/api';
import { customerBody, fullAddress } from '../support/customers';
import { enrolledPerson, get, Jar, signIn } from '../support/panel';

describe("merchant panel: the account's customers and payment methods (issue 27)", () => {
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

  it('shows which payment methods the operator enabled', async () => {
    const owner = await enrolledPerson('owner');
    expect((await admin('account', 'set-methods', '--account', owner.accountId, '--methods', 'pix')).code).toBe(0);
    const jar = new Jar();
    expect((await signIn(jar, owner)).status).toBe(303);
    const page = await get(jar, '/panel/metodos');
    expect(page.status).toBe(200);
    const methods = Object.fromEntries([...page.text.matchAll(/data-method="(\w+)">[^<]*<strong>(\w+)<\/strong>/g)].map((m) => [m[1], m[2]]));
    expect(methods).toEqual({ pix: 'habilitado', boleto: 'desabilitado', card: 'desabilitado' });
  });
});
