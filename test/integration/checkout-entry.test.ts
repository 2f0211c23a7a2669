import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAYMENT_METHODS } from '../../shared/domain/payment-methods';
import { createAccount, type IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { escapeHtml } from '../../shared/pages/kit/html';
import { SIMULATED_CARDS } from '../../shared/adapters/providers/simulated';
import { accountStore, admin, bearer, call, newAccount, type Reply, tokenFor } from '../support/api';
import { cardFields, enterCheckout, entryForm, merchantCheckout, openPage, postForm, signed } from '../support/checkout';
import { availableBalance, outboxEventsOf, scanAll } from '../support/ledger';

/**
 * The hosted checkout's entry form (POST /ext_transfer, issue 10 "Entry") and the security of the page
 * it leads to: field rules, merchant look-up, one checkout per (account, tx_ref), signed forms, the
 * merchant's confirmation route, escaping, headers and the card form's CSRF defence.
 */

const PAGE_PATH = /^\/checkout\/CHK-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}\/[A-Za-z0-9_-]{32}$/;
/** What a stack trace or an internal error leaves in a body. */
const INTERNALS = /\n\s+at \S|\.ts:\d+|node_modules|ZodError|TypeError|Error:/;

function expectHtmlPage(reply: Reply, status: number): void {
  expect(reply.status, reply.text).toBe(status);
  expect(String(reply.headers['content-type'])).toMatch(/^text\/html/);
  expect(reply.text).toMatch(/^<!doctype html>/i);
  expect(reply.text).not.toMatch(INTERNALS);
}

/** The fields the 422 page lists (`<li data-field="…">`). */
function listedFields(html: string): string[] {
  return [...html.matchAll(/<li data-field="([^"]+)">/g)].map((match) => match[1] ?? '');
}

function listedLine(html: string, field: string): string {
  return new RegExp(`<li data-field="${field}">([^\\n]*)</li>`).exec(html)?.[1] ?? '';
}

type ListedInvoice = { reference: string; invoice_no: string; method: string; status: string; total: string };

/** The account's invoices whose invoice_no is exactly the tx_ref (the API's filter is a partial match). */
async function invoicesOf(auth: Record<string, string>, txRef: string): Promise<ListedInvoice[]> {
  const reply = await call('GET', `/api/invoices?invoice_no=${encodeURIComponent(txRef)}&limit=50`, { headers: auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { invoices: ListedInvoice[] }).invoices.filter((invoice) => invoice.invoice_no === txRef);
}

/** Every checkout item of an account, read straight from the table. */
async function checkoutItemsOf(accountId: string): Promise<Array<Record<string, unknown>>> {
  return scanAll({
    FilterExpression: '#t = :c AND accountId = :a',
    ExpressionAttributeNames: { '#t': 'type' },
    ExpressionAttributeValues: { ':c': 'checkout', ':a': accountId },
  });
}

async function accountWithAuth(methods = [...PAYMENT_METHODS]): Promise<{ keys: IssuedKeys; auth: Record<string, string> }> {
  const keys = await newAccount(methods);
  return { keys, auth: bearer(await tokenFor(keys)) };
}

describe('checkout entry: field rules and the merchant', () => {
  it('several bad fields at once → one 422 HTML page listing each with its pt-BR label, and nothing else', async () => {
    const { keys } = await accountWithAuth();
    const reply = await postForm(
      '/ext_transfer',
      entryForm(keys, {
        tx_ref: 'bad ref!',
        callback_url: 'ftp://shop.example/done',
        title: '   ',
        quantity: '0',
        amount: '10.123',
        email: 'not-an-email',
        last_name: undefined,
      }),
    );
    expectHtmlPage(reply, 422);
    expect(reply.text).toContain('Dados inválidos');
    const labels: Record<string, string> = {
      tx_ref: 'Referência da transação',
      callback_url: 'URL de retorno',
      title: 'Título',
      quantity: 'Quantidade',
      amount: 'Valor unitário',
      email: 'E-mail',
      last_name: 'Sobrenome',
    };
    expect(listedFields(reply.text).sort()).toEqual(Object.keys(labels).sort());
    for (const [field, label] of Object.entries(labels)) {
      expect(listedLine(reply.text, field), field).toContain(`${label} (<code>${field}</code>)`);
    }
    expect(listedLine(reply.text, 'last_name')).toContain('Campo obrigatório');
    expect(listedLine(reply.text, 'quantity')).toContain('Deve ser no mínimo 1');
  });

  it('a field sent twice → 422 on that field alone', async () => {
    const { keys } = await accountWithAuth();
    const body = `${new URLSearchParams(entryForm(keys)).toString()}&amount=1.00`;
    const reply = await postForm('/ext_transfer', body);
    expectHtmlPage(reply, 422);
    expect(listedFields(reply.text)).toEqual(['amount']);
    expect(listedLine(reply.text, 'amount')).toContain('Deve ser enviado uma única vez');
  });

  it('unknown public key → 404 page; the secret key as public_key → 422 on public_key', async () => {
    const { keys } = await accountWithAuth();
    const unknown = await postForm('/ext_transfer', entryForm(keys, { public_key: `PUB-unknown${randomInt(1_000_000_000)}` }));
    expectHtmlPage(unknown, 404);
    expect(unknown.text).toContain('Chave pública desconhecida');
    const secret = await postForm('/ext_transfer', entryForm(keys, { public_key: keys.secret_key }));
    expectHtmlPage(secret, 422);
    expect(listedFields(secret.text)).toEqual(['public_key']);
    expect(listedLine(secret.text, 'public_key')).toContain('chave secreta');
    // The secret key itself is never echoed into a page.
    expect(secret.text).not.toContain(keys.secret_key);
  });

  it('a disabled account → 400 page; an account with only boleto → 400 page', async () => {
    const { keys } = await accountWithAuth();
    const disabled = await admin('account', 'disable', '--account', keys.account_id);
    expect(disabled.code, disabled.stderr).toBe(0);
    const refused = await postForm('/ext_transfer', entryForm(keys));
    expectHtmlPage(refused, 400);
    expect(refused.text).toContain('não está aceitando pagamentos');
    const boletoOnly = await newAccount(['boleto']);
    const none = await postForm('/ext_transfer', entryForm(boletoOnly));
    expectHtmlPage(none, 400);
    expect(none.text).toContain('nem cartão');
    expect(await checkoutItemsOf(keys.account_id)).toEqual([]);
    expect(await checkoutItemsOf(boletoOnly.account_id)).toEqual([]);
  });
});

describe('checkout entry: one checkout per sale under a tx_ref (issue 31), per tx_ref with signed forms', () => {
  it('303 to the page; the same form again → the same page; another amount, quantity, payer or product → its own page (never the first payer’s, never a 409); another account → its own checkout', async () => {
    const { keys, auth } = await accountWithAuth();
    const form = entryForm(keys);
    const txRef = form.tx_ref ?? '';
    const first = await enterCheckout(form);
    expect(first.reply.status, first.reply.text).toBe(303);
    expect(first.page).toMatch(PAGE_PATH);
    const again = await enterCheckout(form);
    expect(again.reply.status, again.reply.text).toBe(303);
    expect(again.page).toBe(first.page);
    const pix = await invoicesOf(auth, txRef);
    expect(pix).toHaveLength(1);
    expect(pix[0]).toMatchObject({ method: 'pix', status: 'PENDING', total: '99.80' });

    // Someone who knows the public key and the tx_ref but not the whole sale gets a page of their own:
    // the answer says nothing of whether the tx_ref exists, and never leads to the first payer's page.
    const pages = new Set([first.page]);
    for (const changed of [
      { amount: '49.91' },
      { quantity: '3' },
      { first_name: 'Bruno' },
      { email: 'other@example.com' },
      { title: 'Outra coisa' },
      { product_reference: undefined },
    ]) {
      const probe = await enterCheckout(Object.fromEntries(Object.entries({ ...form, ...changed }).filter((e): e is [string, string] => e[1] !== undefined)));
      expect(probe.reply.status, JSON.stringify(changed)).toBe(303);
      expect(probe.page).toMatch(PAGE_PATH);
      expect(pages.has(probe.page), JSON.stringify(changed)).toBe(false);
      pages.add(probe.page);
    }
    expect(await checkoutItemsOf(keys.account_id)).toHaveLength(7);

    const other = await accountWithAuth();
    const theirs = await enterCheckout({ ...form, public_key: other.keys.public_key });
    expect(theirs.reply.status, theirs.reply.text).toBe(303);
    expect(pages.has(theirs.page)).toBe(false);
    expect(await invoicesOf(other.auth, txRef)).toHaveLength(1);
  });

  it('a squatted tx_ref does not stop the real sale: the stranger’s R$ 0,01 first, then the payer pays; GET ?total= answers the real one, and lists both', async () => {
    const { keys, auth } = await accountWithAuth();
    const real = entryForm(keys);
    const txRef = real.tx_ref ?? '';
    const squat = await enterCheckout({ ...real, amount: '0.01', quantity: '1', callback_url: 'https://evil.example/got-it', email: 'evil@example.com' });
    expect(squat.reply.status).toBe(303);
    const sale = await enterCheckout(real);
    expect(sale.reply.status, sale.reply.text).toBe(303);
    expect(sale.page).not.toBe(squat.page);
    const opened = await openPage(sale.page);
    const paid = await postForm(`${sale.page}/card`, cardFields(opened.csrf, { creditcard_number: SIMULATED_CARDS.approved }), { cookie: opened.cookie });
    expect(paid.status, paid.text).toBe(303);
    expect(String(paid.headers.location)).toMatch(/^https:\/\/shop\.example\//);

    type Answer = { checkout: { total: string; status: string; email: string }; checkouts?: { total: string; status: string }[] };
    const described = (await call('GET', `/api/checkout/${txRef}?total=99.80`, { headers: auth })).json as Answer;
    expect(described.checkout).toMatchObject({ total: '99.80', status: 'PAID', email: real.email });
    expect(described.checkouts?.map((c) => `${c.total}:${c.status}`).sort()).toEqual(['0.01:PENDING', '99.80:PAID']);
    // Without ?total=: the PAID one, with the list.
    const plain = (await merchantCheckout(auth, txRef)).json as Answer;
    expect(plain.checkout).toMatchObject({ total: '99.80', status: 'PAID' });
    expect(plain.checkouts).toHaveLength(2);
    expect((await call('GET', `/api/checkout/${txRef}?total=1.00`, { headers: auth })).status).toBe(404);
    // A tx_ref with one checkout keeps the spec's shape: no list.
    const singleForm = entryForm(keys);
    expect((await enterCheckout(singleForm)).reply.status).toBe(303);
    const one = (await merchantCheckout(auth, singleForm.tx_ref ?? '')).json as Answer;
    expect(one.checkout).toMatchObject({ total: '99.80', status: 'PENDING' });
    expect(one.checkouts).toBeUndefined();
  });

  it('with signed forms, one checkout per tx_ref: another sale under it → 409 (only the merchant can sign)', async () => {
    const { keys } = await accountWithAuth();
    const issued = await admin('account', 'checkout-signing', '--account', keys.account_id, '--require', 'on');
    const secret = String((issued.json as { secret?: string }).secret);
    const form = entryForm(keys);
    expect((await enterCheckout(signed(form, secret))).reply.status).toBe(303);
    const other = await postForm('/ext_transfer', signed({ ...form, amount: '49.91' }, secret));
    expectHtmlPage(other, 409);
    expect(other.text).toContain('outro valor, quantidade ou comprador');
    expect(await checkoutItemsOf(keys.account_id)).toHaveLength(1);
  });

  it('after payment, the same tx_ref → 303 to the page, which now shows the receipt', async () => {
    const { keys, auth } = await accountWithAuth();
    const form = entryForm(keys);
    const { page } = await enterCheckout(form);
    const opened = await openPage(page);
    const paid = await postForm(`${page}/card`, cardFields(opened.csrf), { cookie: opened.cookie });
    expect(paid.status, paid.text).toBe(303);
    const again = await enterCheckout(form);
    expect(again.reply.status, again.reply.text).toBe(303);
    expect(again.page).toBe(page);
    const receipt = await call('GET', again.page);
    expectHtmlPage(receipt, 200);
    // The status line itself (the open page's script also holds the words).
    expect(receipt.text).toMatch(/id="status"[^>]*>Pagamento confirmado</);
    expect(receipt.text).not.toContain('name="csrf_token"');
    expect(await invoicesOf(auth, form.tx_ref ?? '')).toHaveLength(2);
  });

  it('20 concurrent posts of a new tx_ref → all 303 to the same page, exactly one checkout and one Pix invoice', async () => {
    const { keys, auth } = await accountWithAuth();
    const form = entryForm(keys);
    const entries = await Promise.all(Array.from({ length: 20 }, () => enterCheckout(form)));
    expect(entries.map((entry) => entry.reply.status)).toEqual(Array.from({ length: 20 }, () => 303));
    const pages = new Set(entries.map((entry) => entry.page));
    expect(pages.size).toBe(1);
    expect([...pages][0]).toMatch(PAGE_PATH);
    expect(await invoicesOf(auth, form.tx_ref ?? '')).toHaveLength(1);
    const checkouts = await checkoutItemsOf(keys.account_id);
    expect(checkouts).toHaveLength(1);
    expect([...pages][0]).toContain(String(checkouts[0]?.reference));
  });
});

describe('checkout entry: signed forms', () => {
  it('required signature: unsigned → 400, signed → 303, signed then edited → 400, wrong secret → 400', async () => {
    const { keys } = await accountWithAuth();
    const issued = await admin('account', 'checkout-signing', '--account', keys.account_id, '--require', 'on');
    expect(issued.code, issued.stderr).toBe(0);
    const secret = String((issued.json as { secret?: string }).secret);
    expect(secret).toMatch(/^cks_[A-Za-z0-9_-]{43}$/);

    const unsigned = await postForm('/ext_transfer', entryForm(keys));
    expectHtmlPage(unsigned, 400);
    expect(unsigned.text).toContain('Formulário sem assinatura');

    const good = signed(entryForm(keys), secret);
    const accepted = await enterCheckout(good);
    expect(accepted.reply.status, accepted.reply.text).toBe(303);
    expect(accepted.page).toMatch(PAGE_PATH);

    const edited = await postForm('/ext_transfer', { ...signed(entryForm(keys), secret), amount: '0.01' });
    expectHtmlPage(edited, 400);
    expect(edited.text).toContain('Assinatura do formulário inválida');

    const wrong = await postForm('/ext_transfer', signed(entryForm(keys), `cks_${'A'.repeat(43)}`));
    expectHtmlPage(wrong, 400);
    expect(wrong.text).toContain('Assinatura do formulário inválida');
    expect(await checkoutItemsOf(keys.account_id)).toHaveLength(1);
  });
});

describe('GET /api/checkout/{tx_ref}', () => {
  it('every field of spec 2.6 with its type; another account’s, unknown → 404; no token → 401', async () => {
    const { keys, auth } = await accountWithAuth();
    const form = entryForm(keys);
    const txRef = form.tx_ref ?? '';
    const { page } = await enterCheckout(form);
    const reply = await merchantCheckout(auth, txRef);
    expect(reply.status, reply.text).toBe(200);
    const checkout = (reply.json as { checkout: Record<string, unknown> }).checkout;
    expect(checkout).toMatchObject({
      tx_ref: txRef,
      status: 'PENDING',
      title: 'Camiseta azul',
      quantity: 2,
      amount: '49.90',
      total: '99.80',
      email: 'ana@example.com',
      first_name: 'Ana',
      last_name: 'Silva',
      payment_type: null,
    });
    expect(typeof checkout.reference).toBe('string');
    expect(page).toContain(`/${String(checkout.reference)}/`);
    expect(Number.isInteger(checkout.quantity)).toBe(true);
    expect(typeof checkout.created_at).toBe('string');
    expect(Number.isNaN(Date.parse(String(checkout.created_at)))).toBe(false);

    const other = await accountWithAuth();
    expect((await merchantCheckout(other.auth, txRef)).status).toBe(404);
    expect((await merchantCheckout(auth, `never-${randomInt(1_000_000_000)}`)).status).toBe(404);
    expect((await call('GET', `/api/checkout/${encodeURIComponent(txRef)}`)).status).toBe(401);
  });
});

describe('checkout page security', () => {
  const markup = (tag: string) => `<script>alert(1)</script>"><img src=x onerror=alert(1)> ${tag}`;
  const RAW = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><img'];

  function expectInert(html: string, shown: string[]): void {
    for (const raw of RAW) expect(html).not.toContain(raw);
    for (const value of shown) expect(html).toContain(escapeHtml(value));
  }

  it('every user-supplied value appears only escaped; strict CSP, no-store, an HttpOnly SameSite=Strict cookie', async () => {
    const merchantName = markup('loja');
    const keys = await createAccount(accountStore(), { name: merchantName, methods: [...PAYMENT_METHODS], withdrawFeeCents: 0 });
    const form = entryForm(keys, {
      title: markup('title'),
      first_name: markup('first'),
      last_name: markup('last'),
      product_name: markup('product'),
    });
    const { reply, page } = await enterCheckout(form);
    expect(reply.status, reply.text).toBe(303);
    const opened = await openPage(page);
    expectHtmlPage(opened.reply, 200);
    expectInert(opened.reply.text, [merchantName, markup('title'), `${markup('first')} ${markup('last')}`]);

    const csp = String(opened.reply.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(opened.reply.headers['cache-control']).toBe('no-store');
    const setCookie = opened.reply.headers['set-cookie'];
    const cookie = Array.isArray(setCookie) ? (setCookie[0] ?? '') : String(setCookie);
    expect(cookie).toMatch(/^chk_csrf=/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);

    // The declined page echoes the holder's name: escaped too.
    const holder = markup('holder').slice(0, 100);
    const declined = await postForm(`${page}/card`, cardFields(opened.csrf, { creditcard_number: SIMULATED_CARDS.declined, creditcard_holder: holder }), {
      cookie: opened.cookie,
    });
    expectHtmlPage(declined, 400);
    expectInert(declined.text, [merchantName, markup('title'), holder]);
    expect(declined.text).not.toContain(SIMULATED_CARDS.declined);

    const paid = await postForm(`${page}/card`, cardFields(opened.csrf), { cookie: opened.cookie });
    expect(paid.status, paid.text).toBe(303);
    const receipt = await call('GET', page);
    expectHtmlPage(receipt, 200);
    expectInert(receipt.text, [merchantName, markup('title')]);
    expect(String(receipt.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(receipt.headers['cache-control']).toBe('no-store');
  });

  it('a card post without the cookie or with a wrong csrf_token → 403 page, nothing charged; a wrong page token → 404', async () => {
    const { keys, auth } = await accountWithAuth();
    const form = entryForm(keys);
    const { page } = await enterCheckout(form);
    const opened = await openPage(page);
    expect(opened.csrf).not.toBe('');

    const noCookie = await postForm(`${page}/card`, cardFields(opened.csrf));
    expectHtmlPage(noCookie, 403);
    const wrongToken = await postForm(`${page}/card`, cardFields(`${opened.csrf.slice(0, -2)}AA`), { cookie: opened.cookie });
    expectHtmlPage(wrongToken, 403);
    const otherCookie = await openPage(page);
    const crossed = await postForm(`${page}/card`, cardFields(opened.csrf), { cookie: otherCookie.cookie });
    expectHtmlPage(crossed, 403);

    const checkout = await merchantCheckout(auth, form.tx_ref ?? '');
    expect((checkout.json as { checkout: { status: string } }).checkout.status).toBe('PENDING');
    expect(await availableBalance(auth)).toBe('0.00');
    expect(await outboxEventsOf(keys.account_id)).toEqual([]);
    expect((await invoicesOf(auth, form.tx_ref ?? '')).map((invoice) => invoice.method)).toEqual(['pix']);

    const token = page.split('/').at(-1) ?? '';
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const wrongPage = page.replace(/[^/]+$/, flipped);
    expectHtmlPage(await call('GET', wrongPage), 404);
    expectHtmlPage(await postForm(`${wrongPage}/card`, cardFields(opened.csrf), { cookie: opened.cookie }), 404);
    expect((await call('GET', `${wrongPage}/status`)).status).toBe(404);
  });
});
