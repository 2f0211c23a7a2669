import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { routeList } from '../../shared/http/routes';
import { SIMULATED_CARDS, SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { admin, basic, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { cardBody, common, createCustomerWithAddress } from '../support/charges';
import { cardFields, entryForm, signed } from '../support/checkout';
import { customerBody } from '../support/customers';
import { freePort } from '../../infra/local/free-port';
import { enrolledPerson, get as panelGet, hidden, Jar, post as panelPost, signIn as panelSignIn } from '../support/panel';
import { notification, providerSecret } from '../support/provider';

/**
 * Stoplight Prism as a validating proxy (`prism proxy`) in front of the local stack, over the document
 * buildOpenApiDocument generates: a representative call of every route, its success and the declared
 * errors that are cheap to reach, each checked against the document. Prism reports every disagreement
 * in an `sl-violations` header; a response violation means the document does not say what the route
 * answers. Requests that are invalid on purpose (to reach a 400 or 422) carry their request violations,
 * which are expected; their responses must still match.
 */

const root = resolve(__dirname, '../..');
const prismCli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');

type Violation = { location: string[]; severity: string; code?: string | number; message: string };
type Proxied = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: unknown; violations: Violation[] };
type Redirect = { route: string; status: number; location: unknown; contentType: unknown };
const redirects: Redirect[] = [];
type Probe = { route: string; what: string; expected: number; invalidRequest?: boolean; reply: Proxied };

type Prism = { child: ChildProcess; port: number; log: () => string };
const started: Prism[] = [];
let prismPort = 0;
let workDir = '';

function through(method: string, path: string, options: { headers?: Record<string, string>; body?: string | object; port?: number } = {}): Promise<Proxied> {
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(body !== undefined && typeof options.body === 'object' ? { 'content-type': 'application/json' } : {}),
    ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...options.headers,
  };
  return new Promise((done, fail) => {
    const req = request({ method, hostname: '127.0.0.1', port: options.port ?? prismPort, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const raw = res.headers['sl-violations'];
        const violations = typeof raw === 'string' && raw !== '' ? (JSON.parse(raw) as Violation[]) : [];
        done({ status: res.statusCode ?? 0, headers: res.headers, text, json, violations });
      });
    });
    req.on('error', fail);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Starts `prism proxy <document> <local stack>` on a free loopback port; resolves once it forwards. */
async function startPrism(document: unknown, name: string): Promise<Prism> {
  const documentFile = join(workDir, name);
  await writeFile(documentFile, JSON.stringify(document));
  const port = await freePort();
  const child = spawn(process.execPath, [prismCli, 'proxy', documentFile, stack().baseUrl, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: root,
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString('utf8')));
  const prism = { child, port, log: () => log };
  started.push(prism);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited: ${log.slice(-2000)}`);
    const up = await through('GET', '/developers/openapi.yaml', { port }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return prism;
    if (Date.now() > deadline) throw new Error(`prism did not start: ${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'prism-contract-'));
  prismPort = (await startPrism(buildOpenApiDocument(routeList), 'openapi.json')).port;
}, 45_000);

afterAll(async () => {
  for (const { child } of started) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Every route's representative calls, run in order (later calls use what earlier ones created). */
async function probeEveryRoute(): Promise<Probe[]> {
  const probes: Probe[] = [];
  const probe = async (route: string, what: string, expected: number, call: Promise<Proxied>, invalidRequest = false) => {
    const reply = await call;
    probes.push({ route, what, expected, invalidRequest, reply });
    return reply;
  };
  const keys = await newAccount();
  const auth = bearer(await tokenFor(keys));
  const json = { ...auth, 'content-type': 'application/json' };

  await probe('AuthToken', 'keys', 200, through('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } }));
  await probe('AuthToken', 'wrong secret', 401, through('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, 'SEC-wrong') } }));
  await probe('AuthToken', 'not Basic', 400, through('POST', '/api/auth', { headers: { authorization: 'Basic %%%' } }), true);
  await probe('GetBalance', 'balance', 200, through('GET', '/api/balance', { headers: auth }));
  await probe('GetBalance', 'bad token', 401, through('GET', '/api/balance', { headers: bearer('garbage') }));
  await probe('ListBalanceTransactions', 'statement', 200, through('GET', '/api/balance/transactions', { headers: auth }));
  await probe('ListBalanceTransactions', 'bad type', 422, through('GET', '/api/balance/transactions?type=nope', { headers: auth }), true);

  const customer = await probe('CreateCustomer', 'customer', 200, through('POST', '/api/customer', { headers: json, body: customerBody() }));
  const customerId = (customer.json as { customer: { id: number } }).customer.id;
  await probe('CreateCustomer', 'no name', 422, through('POST', '/api/customer', { headers: json, body: customerBody({ name: '' }) }), true);
  await probe('CreateCustomer', 'not an object', 400, through('POST', '/api/customer', { headers: json, body: '[1]' }), true);
  const key = `prism-${Date.now()}`;
  await probe('CreateCustomer', 'keyed', 200, through('POST', '/api/customer', { headers: { ...json, 'idempotency-key': key }, body: customerBody() }));
  await probe(
    'CreateCustomer',
    'key reused with another body',
    422,
    through('POST', '/api/customer', { headers: { ...json, 'idempotency-key': key }, body: customerBody({ name: 'Outra Pessoa' }) }),
  );
  await probe('GetCustomer', 'customer', 200, through('GET', `/api/customer/${customerId}`, { headers: auth }));
  await probe('GetCustomer', 'unknown', 404, through('GET', '/api/customer/999999999', { headers: auth }));
  await probe('GetCustomer', 'non-numeric', 400, through('GET', '/api/customer/abc', { headers: auth }), true);
  await probe('ListCustomers', 'customers', 200, through('GET', '/api/customers', { headers: auth }));
  await probe('ListCountries', 'countries', 200, through('GET', '/api/country/all', { headers: auth }));
  await probe('ListStates', 'states', 200, through('GET', '/api/state/all', { headers: auth }));
  await probe('SearchCep', 'known CEP', 200, through('GET', '/api/cep/search/20040-020', { headers: auth }));
  await probe('SearchCep', 'malformed', 422, through('GET', '/api/cep/search/12', { headers: auth }));

  const pix = await probe('CreatePixCharge', 'pix', 200, through('POST', '/api/pix/create', { headers: json, body: common() }));
  const pixInvoice = (pix.json as { invoice: { reference: string; txid: string } }).invoice;
  const boletoCustomer = await createCustomerWithAddress(auth);
  const boleto = await probe(
    'CreateBoletoCharge',
    'boleto',
    200,
    through('POST', '/api/boleto/create', { headers: json, body: { ...common(), customer: boletoCustomer } }),
  );
  const boletoInvoice = (boleto.json as { invoice: { reference: string; boleto: string } }).invoice;
  const card = await probe('CreateCardCharge', 'approved', 200, through('POST', '/api/creditcard/create', { headers: json, body: cardBody({ amount: 500 }) }));
  const cardInvoice = (card.json as { invoice: { reference: string } }).invoice;
  await probe(
    'CreateCardCharge',
    'declined',
    400,
    through('POST', '/api/creditcard/create', { headers: json, body: cardBody({ creditcard_number: SIMULATED_CARDS.declined }) }),
  );
  await probe(
    'CreateCardCharge',
    'processor failure',
    502,
    through('POST', '/api/creditcard/create', { headers: json, body: cardBody({ creditcard_number: SIMULATED_CARDS.providerError }) }),
  );
  await probe('ListInvoices', 'invoices', 200, through('GET', '/api/invoices', { headers: auth }));
  const invoices = await through('GET', '/api/invoices', { headers: auth });
  const invoiceId = (invoices.json as { invoices: { id: number }[] }).invoices[0]?.id ?? 0;
  await probe('GetInvoice', 'invoice', 200, through('GET', `/api/invoice/${invoiceId}`, { headers: auth }));
  await probe('GetInvoice', 'unknown', 404, through('GET', '/api/invoice/999999999', { headers: auth }));
  await probe('GetInvoice', 'non-numeric', 400, through('GET', '/api/invoice/abc', { headers: auth }), true);
  await probe('GetInvoiceByReference', 'invoice', 200, through('GET', `/api/invoice/ref/${cardInvoice.reference}`, { headers: auth }));
  await probe('GetInvoiceByReference', 'unknown', 404, through('GET', '/api/invoice/ref/INV-ZZZZZZ', { headers: auth }));
  await probe('GetPixInvoiceByReference', 'invoice', 200, through('GET', `/api/pix/invoice/${pixInvoice.reference}`, { headers: auth }));
  await probe('GetPixInvoiceByReference', 'not Pix', 404, through('GET', `/api/pix/invoice/${cardInvoice.reference}`, { headers: auth }));
  await probe('GetPixInvoiceByTxid', 'invoice', 200, through('GET', `/api/pix/txid/${pixInvoice.txid}`, { headers: auth }));
  await probe('GetPixInvoiceByTxid', 'unknown', 404, through('GET', '/api/pix/txid/unknowntxid000000000000000', { headers: auth }));
  // Issue 46: a PENDING Pix of its own canceled; a paid card charge refused; an unknown id.
  const toCancel = await through('POST', '/api/pix/create', { headers: json, body: common() });
  const toCancelRef = (toCancel.json as { invoice: { reference: string } }).invoice.reference;
  const toCancelId = ((await through('GET', `/api/invoice/ref/${toCancelRef}`, { headers: auth })).json as { invoice: { id: number } }).invoice.id;
  await probe('CancelInvoice', 'pending Pix', 200, through('POST', `/api/invoice/${toCancelId}/cancel`, { headers: auth }));
  await probe('CancelInvoice', 'not PENDING', 400, through('POST', `/api/invoice/${toCancelId}/cancel`, { headers: auth }));
  await probe('CancelInvoice', 'unknown', 404, through('POST', '/api/invoice/999999999/cancel', { headers: auth }));

  const withdrawBody = { amount: 10, pixkey: 'ana@example.com', keytype: 'EMAIL' };
  const withdraw = await probe(
    'CreateWithdraw',
    'withdraw',
    200,
    through('POST', '/api/pixout/create', { headers: { ...json, 'idempotency-key': `prism-w-${Date.now()}` }, body: withdrawBody }),
  );
  const withdrawRef = (withdraw.json as { withdraw?: { reference?: string } }).withdraw?.reference ?? 'none';
  await probe(
    'CreateWithdraw',
    'insufficient balance',
    400,
    through('POST', '/api/pixout/create', { headers: { ...json, 'idempotency-key': `prism-w2-${Date.now()}` }, body: { ...withdrawBody, amount: 90_000_000 } }),
  );
  await probe('GetWithdraw', 'withdraw', 200, through('GET', `/api/pixout/withdraw/${withdrawRef}`, { headers: auth }));
  await probe('GetWithdraw', 'unknown', 404, through('GET', '/api/pixout/withdraw/WD-UNKNOWN', { headers: auth }));
  await probe('ListWithdrawals', 'withdrawals', 200, through('GET', '/api/pixout/list', { headers: auth }));
  await probe('ListWithdrawals', 'bad date', 400, through('GET', '/api/pixout/list?start=nope', { headers: auth }), true);

  await probe('GetWebhook', 'config', 200, through('GET', '/api/webhook', { headers: auth }));
  await probe('RotateWebhookSecret', 'none configured', 409, through('POST', '/api/webhook/secret/rotate', { headers: auth }));
  await probe('TestWebhook', 'none configured', 409, through('POST', '/api/webhook/test', { headers: auth }));
  await probe('PutWebhook', 'set', 200, through('PUT', '/api/webhook', { headers: json, body: { url: 'https://127.0.0.13:8443/prism' } }));
  await probe('PutWebhook', 'http URL', 422, through('PUT', '/api/webhook', { headers: json, body: { url: 'http://127.0.0.13/prism' } }));
  await probe('RotateWebhookSecret', 'rotated', 200, through('POST', '/api/webhook/secret/rotate', { headers: auth }));
  const ping = await probe('TestWebhook', 'queued', 202, through('POST', '/api/webhook/test', { headers: auth }));
  await probe('ListWebhookDeliveries', 'deliveries', 200, through('GET', '/api/webhook/deliveries', { headers: auth }));
  // The events API (issue 29): the ping just queued is the account's event.
  const pingId = String((ping.json as { event_id?: string }).event_id);
  await probe('ListEvents', 'events', 200, through('GET', '/api/events?limit=5', { headers: auth }));
  await probe('ListEvents', 'unknown delivery status', 422, through('GET', '/api/events?delivery_status=lost', { headers: auth }), true);
  await probe('GetEvent', 'the ping', 200, through('GET', `/api/events/${pingId}`, { headers: auth }));
  await probe('GetEvent', 'unknown', 404, through('GET', '/api/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA', { headers: auth }));
  await probe('RedeliverEvent', 'unknown', 404, through('POST', '/api/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA/redeliver', { headers: auth }));

  const secret = await providerSecret();
  const signedPost = (path: string, body: string, key = secret) =>
    through('POST', path, {
      headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signatureHeader(body, key, Math.floor(Date.now() / 1000)) },
      body,
    });
  const paid = JSON.stringify(notification('pix-paid', { txid: pixInvoice.txid }));
  await probe('ProviderNotification', 'pix paid', 200, signedPost('/provider/simulated/notifications', paid));
  await probe('ProviderNotification', 'wrong signature', 401, signedPost('/provider/simulated/notifications', paid, 'wrong-secret'));
  await probe('ProviderNotification', 'unknown provider', 404, signedPost('/provider/nobody/notifications', paid));
  await probe('ProviderNotification', 'not a notification', 400, signedPost('/provider/simulated/notifications', '{"id":"x","type":"nope"}'), true);

  // The local stack configures no API Pix PSP: its callback path answers 404 for every provider name.
  const callback = JSON.stringify({ pix: [{ endToEndId: `E${'1'.repeat(31)}`, txid: pixInvoice.txid, valor: '1.00', horario: new Date().toISOString() }] });
  await probe(
    'ProviderPixCallback',
    'no API Pix provider here',
    404,
    through('POST', `/provider/apipix/notifications/${'A'.repeat(32)}/pix`, { headers: { 'content-type': 'application/json' }, body: callback }),
  );

  const boletoPath = new URL(boletoInvoice.boleto).pathname;
  await probe('BoletoPage', 'page', 200, through('GET', boletoPath));
  await probe('BoletoPage', 'wrong link', 404, through('GET', `${boletoPath.slice(0, -4)}AAAA`));

  const fields = entryForm(keys);
  // Prism's proxy follows redirects (node-fetch's default), so a 303 never reaches the client through it:
  // the two 303s are checked directly against the document instead (see the last test).
  const entry = await call('POST', '/ext_transfer', { headers: FORM, body: form(fields) });
  redirects.push({ route: 'CheckoutEntry', status: entry.status, location: entry.headers.location, contentType: entry.headers['content-type'] });
  await probe('CheckoutEntry', 'no amount', 422, through('POST', '/ext_transfer', { headers: FORM, body: form({ ...fields, amount: 'x' }) }), true);
  await probe('CheckoutEntry', 'unknown key', 404, through('POST', '/ext_transfer', { headers: FORM, body: form({ ...fields, public_key: 'PUB-unknown' }) }));
  // Signed forms keep one checkout per tx_ref: another sale under it is a 409 (unsigned: its own checkout, a 303).
  const signing = await admin('account', 'checkout-signing', '--account', keys.account_id, '--require', 'on');
  const signingSecret = String((signing.json as { secret?: string }).secret);
  const signedFields = signed(entryForm(keys), signingSecret);
  expect((await call('POST', '/ext_transfer', { headers: FORM, body: form(signedFields) })).status).toBe(303);
  await probe(
    'CheckoutEntry',
    'signed, tx_ref used for another amount',
    409,
    through('POST', '/ext_transfer', {
      headers: FORM,
      body: form(signed({ ...entryForm(keys), tx_ref: String(signedFields.tx_ref), amount: '1.00' }, signingSecret)),
    }),
  );
  await admin('account', 'checkout-signing', '--account', keys.account_id, '--require', 'off');
  const page = String(entry.headers.location ?? '');
  const pageReply = await probe('CheckoutPage', 'page', 200, through('GET', page));
  await probe('CheckoutPage', 'wrong link', 404, through('GET', `${page.slice(0, -4)}AAAA`));
  await probe('CheckoutStatus', 'status', 200, through('GET', `${page}/status`));
  await probe('CheckoutStatus', 'wrong link', 404, through('GET', `${page.slice(0, -4)}AAAA/status`));
  const setCookie = pageReply.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
  const csrf = /name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"/.exec(pageReply.text);
  const csrfToken = csrf?.[1] ?? csrf?.[2] ?? '';
  await probe(
    'CheckoutCardPayment',
    'wrong CSRF token',
    403,
    through('POST', `${page}/card`, { headers: { ...FORM, cookie }, body: form(cardFields('wrong')) }),
  );
  const paidCard = await call('POST', `${page}/card`, { headers: { ...FORM, cookie }, body: form(cardFields(csrfToken)) });
  redirects.push({ route: 'CheckoutCardPayment', status: paidCard.status, location: paidCard.headers.location, contentType: paidCard.headers['content-type'] });
  await probe('GetCheckout', 'checkout', 200, through('GET', `/api/checkout/${fields.tx_ref}`, { headers: auth }));
  await probe('GetCheckout', 'unknown', 404, through('GET', '/api/checkout/order-unknown', { headers: auth }));
  await probe('OpenApiDocument', 'document', 200, through('GET', '/developers/openapi.yaml'));
  // The merchant panel (issue 27): its pages, and its forms refused without their CSRF token (the redirects are the door test's).
  const person = await enrolledPerson();
  const signedIn = new Jar();
  expect((await panelSignIn(signedIn, person)).status).toBe(303);
  const codeStage = new Jar();
  const signInPage = await panelGet(codeStage, '/panel/entrar');
  await panelPost(codeStage, '/panel/entrar', { csrf_token: hidden(signInPage.text, 'csrf_token'), email: person.email, password: person.password });
  await probe('PanelSignInPage', 'page', 200, through('GET', '/panel/entrar'));
  await probe(
    'PanelSignIn',
    'no CSRF token',
    403,
    through('POST', '/panel/entrar', { headers: FORM, body: form({ email: person.email, password: 'x'.repeat(12) }) }),
    true,
  );
  await probe('PanelCodePage', 'page', 200, through('GET', '/panel/entrar/codigo', { headers: codeStage.header() }));
  await probe(
    'PanelCode',
    'no CSRF token',
    403,
    through('POST', '/panel/entrar/codigo', { headers: { ...FORM, ...codeStage.header() }, body: form({ code: '123456' }) }),
    true,
  );
  await probe('PanelForgotPage', 'forgot password', 200, through('GET', '/panel/senha/esqueci'));
  await probe(
    'PanelForgotPassword',
    'no CSRF token',
    403,
    through('POST', '/panel/senha/esqueci', { headers: FORM, body: form({ email: 'ana@example.com' }) }),
    true,
  );
  await probe('PanelResetPage', 'unknown link', 404, through('GET', `/panel/senha/redefinir/${'A'.repeat(43)}`));
  await probe(
    'PanelResetPassword',
    'no CSRF token',
    403,
    through('POST', `/panel/senha/redefinir/${'A'.repeat(43)}`, { headers: FORM, body: form({ password: 'x', confirmation: 'x', code: '1' }) }),
    true,
  );
  await probe('PanelInvitePage', 'unknown invite', 404, through('GET', `/panel/convite/${'A'.repeat(43)}`));
  await probe(
    'PanelAcceptInvite',
    'no CSRF token',
    403,
    through('POST', `/panel/convite/${'A'.repeat(43)}`, { headers: FORM, body: form({ password: 'x', code: '1' }) }),
    true,
  );
  await probe('PanelSignOut', 'no CSRF token', 403, through('POST', '/panel/sair', { headers: { ...FORM, ...signedIn.header() }, body: form({}) }), true);
  await probe('PanelOverview', 'overview', 200, through('GET', '/panel', { headers: signedIn.header() }));
  await probe('PanelKeysPage', 'keys', 200, through('GET', '/panel/chaves', { headers: signedIn.header() }));
  await probe('PanelCustomers', 'customers', 200, through('GET', '/panel/clientes?page=1&name=Ana', { headers: signedIn.header() }));
  await probe('PanelCustomer', 'unknown customer', 404, through('GET', '/panel/clientes/1', { headers: signedIn.header() }));
  await probe('PanelMethods', 'methods', 200, through('GET', '/panel/metodos', { headers: signedIn.header() }));
  await probe(
    'PanelRotateKeys',
    'no CSRF token',
    403,
    through('POST', '/panel/chaves', { headers: { ...FORM, ...signedIn.header() }, body: form({ code: '123456' }) }),
    true,
  );
  await probe('PanelAuditLog', 'audit log', 200, through('GET', '/panel/auditoria', { headers: signedIn.header() }));
  await probe('PanelWebhooksPage', 'webhooks', 200, through('GET', '/panel/webhooks', { headers: signedIn.header() }));
  await probe(
    'PanelSetWebhook',
    'no CSRF token',
    403,
    through('POST', '/panel/webhooks', { headers: { ...FORM, ...signedIn.header() }, body: form({ url: 'https://127.0.0.13:8443/p', code: '123456' }) }),
    true,
  );
  await probe(
    'PanelRotateWebhookSecret',
    'no CSRF token',
    403,
    through('POST', '/panel/webhooks/segredo', { headers: { ...FORM, ...signedIn.header() }, body: form({ code: '123456' }) }),
    true,
  );
  await probe('PanelWithdrawals', 'withdrawals', 200, through('GET', '/panel/saques?page=1&status=PAID', { headers: signedIn.header() }));
  await probe(
    'PanelRequestWithdrawal',
    'no CSRF token',
    403,
    through('POST', '/panel/saques', {
      headers: { ...FORM, ...signedIn.header() },
      body: form({ amount: '10,00', keytype: 'CPF', pixkey: '52998224725', code: '123456' }),
    }),
    true,
  );
  await probe('PanelSecurity', 'security', 200, through('GET', '/panel/seguranca', { headers: signedIn.header() }));
  await probe(
    'PanelChangePassword',
    'no CSRF token',
    403,
    through('POST', '/panel/seguranca/senha', { headers: { ...FORM, ...signedIn.header() }, body: form({ current: 'x', password: 'y', confirmation: 'y' }) }),
    true,
  );
  await probe(
    'PanelSignOutEverywhere',
    'no CSRF token',
    403,
    through('POST', '/panel/seguranca/sessoes', { headers: { ...FORM, ...signedIn.header() }, body: form({}) }),
    true,
  );
  await probe(
    'PanelStartNewAuthenticator',
    'no CSRF token',
    403,
    through('POST', '/panel/seguranca/autenticador', { headers: { ...FORM, ...signedIn.header() }, body: form({ code: '123456' }) }),
    true,
  );
  await probe(
    'PanelConfirmNewAuthenticator',
    'no CSRF token',
    403,
    through('POST', '/panel/seguranca/autenticador/confirmar', { headers: { ...FORM, ...signedIn.header() }, body: form({ enrollment: 'x', code: '123456' }) }),
    true,
  );
  await probe(
    'PanelTestWebhook',
    'no CSRF token',
    403,
    through('POST', '/panel/webhooks/teste', { headers: { ...FORM, ...signedIn.header() }, body: form({}) }),
    true,
  );
  await probe('PanelCheckoutPage', 'checkout settings', 200, through('GET', '/panel/checkout', { headers: signedIn.header() }));
  await probe(
    'PanelSetCheckoutSigning',
    'no CSRF token',
    403,
    through('POST', '/panel/checkout', { headers: { ...FORM, ...signedIn.header() }, body: form({ require: 'on', code: '123456' }) }),
    true,
  );
  await probe(
    'PanelRotateCheckoutSecret',
    'no CSRF token',
    403,
    through('POST', '/panel/checkout/segredo', { headers: { ...FORM, ...signedIn.header() }, body: form({ code: '123456' }) }),
    true,
  );
  await probe(
    'PanelRedeliverWebhook',
    'no CSRF token',
    403,
    through('POST', '/panel/webhooks/reenviar', { headers: { ...FORM, ...signedIn.header() }, body: form({ event: 'evt_1' }) }),
    true,
  );
  await probe('PanelTeam', 'team', 200, through('GET', '/panel/equipe', { headers: signedIn.header() }));
  await probe(
    'PanelInvitePerson',
    'no CSRF token',
    403,
    through('POST', '/panel/equipe', { headers: { ...FORM, ...signedIn.header() }, body: form({ email: 'b@example.com', role: 'viewer', code: '123456' }) }),
    true,
  );
  await probe(
    'PanelChangeRole',
    'no CSRF token',
    403,
    through('POST', '/panel/equipe/papel', { headers: { ...FORM, ...signedIn.header() }, body: form({ person: 'x', role: 'viewer', code: '123456' }) }),
    true,
  );
  await probe(
    'PanelRemovePerson',
    'no CSRF token',
    403,
    through('POST', '/panel/equipe/remover', { headers: { ...FORM, ...signedIn.header() }, body: form({ person: 'x', code: '123456' }) }),
    true,
  );
  await probe('PanelInvoices', 'invoices', 200, through('GET', '/panel/faturas?page=1&invoice_no=ORD-1', { headers: signedIn.header() }));
  await probe('PanelInvoice', 'unknown invoice', 404, through('GET', '/panel/faturas/INV-AAAAAA', { headers: signedIn.header() }));
  await probe('PanelStatement', 'statement', 200, through('GET', '/panel/extrato?type=payment', { headers: signedIn.header() }));
  await probe('PanelStatementCsv', 'csv', 200, through('GET', '/panel/extrato/csv?type=payment', { headers: signedIn.header() }));
  await probe('PanelWithdrawal', 'unknown withdrawal', 404, through('GET', '/panel/saques/WD-AAAAAAAAAAAA', { headers: signedIn.header() }));
  return probes;
}

describe('Prism validating proxy over the generated OpenAPI document', () => {
  let probes: Probe[] = [];

  beforeAll(async () => {
    probes = await probeEveryRoute();
  }, 90_000);

  it('reaches every route, each call with the status it aims at', () => {
    expect(new Set(probes.map((p) => p.route))).toEqual(new Set(routeList.map((r) => r.id)));
    const missed = probes
      .filter((p) => p.reply.status !== p.expected)
      .map((p) => `${p.route} ${p.what}: ${p.reply.status} (wanted ${p.expected}) ${p.reply.text.slice(0, 200)}`);
    expect(missed).toEqual([]);
  });

  it('finds 0 violations in the answers, and none in the requests meant to be valid', () => {
    const found = probes.flatMap((p) =>
      p.reply.violations
        .filter((v) => v.location[0] === 'response' || !p.invalidRequest)
        .map((v) => `${p.route} ${p.what} (${p.reply.status}): ${v.location.join('.')} ${v.message}`),
    );
    expect(found).toEqual([]);
  });

  it('answers the 303s (checked without Prism) as declared: a Location, and the declared content type', () => {
    const document = buildOpenApiDocument(routeList) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }> }>>;
    };
    expect(redirects.map((r) => r.route)).toEqual(['CheckoutEntry', 'CheckoutCardPayment']);
    for (const redirect of redirects) {
      const route = routeList.find((r) => r.id === redirect.route);
      const declared = route ? document.paths[route.path]?.[route.method.toLowerCase()]?.responses['303'] : undefined;
      expect(redirect.status, redirect.route).toBe(303);
      expect(declared?.headers?.Location, redirect.route).toBeDefined();
      expect(typeof redirect.location, redirect.route).toBe('string');
      expect(Object.keys(declared?.content ?? {}), redirect.route).toContain(String(redirect.contentType));
    }
  });

  it('reports a response that disagrees with the document (a balance answer the document says has another field)', async () => {
    const document = buildOpenApiDocument(routeList) as {
      components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> };
    };
    const balance = document.components.schemas.BalanceResponse;
    expect(balance).toBeDefined();
    if (balance) {
      balance.properties = { ...balance.properties, not_sent: { type: 'string', maxLength: 1 } };
      balance.required = [...(balance.required ?? []), 'not_sent'];
    }
    const wrong = await startPrism(document, 'wrong.json');
    const reply = await through('GET', '/api/balance', { headers: bearer(await tokenFor(await newAccount())), port: wrong.port });
    expect(reply.status).toBe(200);
    expect(
      reply.violations
        .filter((v) => v.location[0] === 'response')
        .map((v) => v.message)
        .join('\n'),
    ).toContain('not_sent');
  }, 45_000);

  it('reports violations at all: a request invalid on purpose carries its request violation', () => {
    const invalid = probes.filter((p) => p.invalidRequest);
    expect(invalid.length).toBeGreaterThan(0);
    for (const p of invalid)
      expect(
        p.reply.violations.some((v) => v.location[0] === 'request'),
        `${p.route} ${p.what}`,
      ).toBe(true);
  });
});
