/**
 * Issue 9, security: every route of the route table against missing and bad credentials and against
 * another account's identifiers (401 or 404, never 403, never the other account's data), and the
 * proof that the sensitive routes leave no secret or personal datum in clear in the table or the logs.
 * Handlers run in this process (test/support/invoke-route.ts) against the real local table.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localAwsConfig } from '../../infra/local/aws';
import { creditAccount, type IssuedKeys, rotateKeys } from '../../shared/adapters/dynamo/accounts';
import { brazilDate } from '../../shared/domain/brazil-dates';
import type { AnyRoute } from '../../shared/http/route';
import { SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { routeList, routes } from '../../shared/http/routes';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, admin, basic, bearer, call, newAccount, stack, tokenFor, useLocalStackEnvironment } from '../support/api';
import { codeFor, elementText, type Enrolled, enrolledPerson, get as panelGet, hidden, Jar, post as panelPost, signIn as panelSignIn } from '../support/panel';
import { SESSION_COOKIE } from '../../shared/http/panel/cookies';
import { cardBody, common } from '../support/charges';
import { cardFields, type CheckoutFields, entryForm, openPage, postForm } from '../support/checkout';
import { customerBody, fullAddress, randomCpf } from '../support/customers';
import type { Invoked } from '../support/invoke';
import { invokeRoute, type RouteRequest } from '../support/invoke-route';
import { captureLogLines } from '../support/log-capture';
import { eventually, ledgerEntriesOf, listedItems, storedBalanceCents } from '../support/ledger';
import { findLogLeaks } from '../support/leak-scan';
import { describeLeaks, scanLogFile, scanTable, stackLogFile, storedLeaks } from '../support/leak-sources';
import { notification, providerSecret } from '../support/provider';
import { tokenSignedWith, tokenSigningKey, withPayloadOf } from '../support/tokens';

/**
 * Routes without a Bearer token, each with why it is public and what protects it instead. A new
 * route that is not `bearer` fails the table test until it is listed here.
 */
const PUBLIC_ROUTES: Readonly<Record<string, string>> = {
  AuthToken:
    'The key exchange itself: authenticated by the public and secret keys in the Basic header (the secret compared by SHA-256 hash in constant time), 10 calls per minute per IP.',
  ProviderNotification:
    "Called by the payment provider, not by a merchant: authenticated by the provider's HMAC signature (Simulated-Signature, 5-minute tolerance) under the credential kept in Secrets Manager.",
  ProviderPixCallback:
    "Called by an API Pix PSP, not by a merchant: the path token is an HMAC of the provider's name (master key) registered with the PSP (a wrong one is 401, counted per IP); no field of the body is trusted: every charge it names is read back from the PSP over the gateway's mutual-TLS channel before anything moves.",
  BoletoPage:
    "The payer opens the boleto from its link without an account: the link's token is an HMAC of the reference (boleto-links key); a wrong token, or another boleto's, is a 404. The page masks the payer's document.",
  OpenApiDocument: 'The public description of the API: a static document, no table access (access: none), no account data.',
  CheckoutEntry:
    "The payer's browser posts the merchant's form: the public key only identifies the merchant (a secret key in its place is refused), it grants nothing. The form can be edited, so the merchant confirms total and status with GET /api/checkout/{tx_ref} (Bearer) or requires HMAC-signed forms; one checkout per sale under a tx_ref (per tx_ref with signed forms, another amount then a 409), the callback in canonical form and on the account's allowed origins; limited per IP.",
  CheckoutPage:
    "The payer opens the page from the entry's 303 without an account: the link's token is an HMAC of the checkout's reference (link key); a wrong token, or another checkout's, is the same 404 as an unknown reference. Limited per IP.",
  CheckoutCardPayment:
    "The page's card form: the same HMAC link check, then a CSRF double submit: the hidden csrf_token must be the HMAC of the reference and of the page's chk_csrf cookie (HttpOnly, SameSite=Strict, this checkout's path), else 403. Limited per IP; the card is never stored or logged.",
  CheckoutStatus:
    "The page's poll: the same HMAC link token as the page (another checkout's token → 404); it answers only the status and, once paid, the merchant's callback URL. Limited per IP.",
  PanelSignInPage: "The merchant panel's sign-in page: a form and a CSRF token bound to the browser's pre-session cookie; no account data. Limited per IP.",
  PanelSignIn:
    'The password step: the credentials are the e-mail and password (scrypt, constant time); one answer for an unknown e-mail and a wrong password; failures limited per e-mail and per address; a CSRF token bound to the pre-session cookie.',
  PanelForgotPage: '“Esqueci a senha”: a form and a CSRF token bound to the pre-session cookie; no account data.',
  PanelForgotPassword:
    'A reset link asked: the same answer whether the e-mail signs in or not; the link goes only to the e-mail itself (never in the answer); at most 3 per e-mail in 15 minutes; limited per IP.',
  PanelResetPage:
    "A reset link's page: the link's 256-bit token is the capability (only its SHA-256 stored), for an hour, once; unknown, used or expired tokens are the same 404.",
  PanelResetPassword:
    "A new password through a link: the token, a CSRF token, the policy and a code of the person's own authenticator (a mailbox alone does not open the panel; codes counted as sign-in failures); every session then ends.",
  PanelCodePage: 'The code page: only for a browser whose session cookie holds a sign-in awaiting its code (5 minutes), else a redirect to the sign-in page.',
  PanelCode:
    "The code step: the code-stage session (its cookie, only its hash stored) and a TOTP code of the person's authenticator used once; the signed-in session gets a new id; a CSRF token bound to the session cookie.",
  PanelInvitePage: "An invite's page: the link's 256-bit token is the capability (only its SHA-256 stored); unknown, used or expired tokens are the same 404.",
  PanelAcceptInvite:
    "An invite's acceptance: the same capability link, a CSRF token bound to the pre-session cookie, and a code of the secret the page sealed to this invite; the invite is used once in the enrollment's transaction.",
  PanelSignOut: "Sign-out: the panel's session cookie and a CSRF token bound to it (another's token → 403, nothing ends).",
  PanelCustomers: "The panel's customers page: GET /api/customers' own use case for the signed-in session's account, never another's.",
  PanelCustomer:
    "One customer's page: GET /api/customer/{id}'s read in the signed-in session's account only; another account's id is the 404 of an unknown one.",
  PanelMethods: "The panel's payment methods page: the signed-in session's account's methods, read only.",
  PanelKeysPage: "The panel's API keys page: the signed-in session decides the account; only its public key is shown.",
  PanelRotateKeys:
    'New API keys from the panel: the signed-in session, a CSRF token bound to it, a role that may (owner, admin, developer) and a fresh authenticator code (step-up); the rotation and its audit entry in one transaction.',
  PanelWebhooksPage: "The panel's webhook page: the signed-in session decides the account; the URL and whether a secret exists, never the secret.",
  PanelSetWebhook:
    "The webhook URL from the panel: the signed-in session, a CSRF token bound to it, a role that may (owner, admin, developer), a fresh authenticator code, then PUT /api/webhook's SSRF rules; committed with its audit entry.",
  PanelRotateWebhookSecret:
    'A new webhook secret from the panel: the same session, CSRF token, role and fresh code; the secret shown once; committed with its audit entry.',
  PanelAuditLog: "The account's audit log: the signed-in session decides the account; owners and admins only.",
  PanelWithdrawals: "The panel's withdrawals page: GET /api/pixout/list's store for the signed-in session's account, never another's.",
  PanelRequestWithdrawal:
    "A withdrawal from the panel: the signed-in session, a CSRF token bound to it, a role that may (owner, admin, finance) and a fresh authenticator code used once; POST /api/pixout/create's reservation committed with its audit entry.",
  PanelWithdrawal: "One withdrawal's page: the signed-in session's account only; another account's reference is the 404 of an unknown one.",
  PanelSecurity: "The person's own security page: the signed-in session's person's sessions only (GSI1 partition of that person).",
  PanelChangePassword:
    "A new password: the signed-in session, its CSRF token and the current password (a wrong one counted as a sign-in failure); only the session's own person changes.",
  PanelSignOutEverywhere: "Sign out everywhere: the signed-in session and its CSRF token; only the session's own person's sessions end.",
  PanelStartNewAuthenticator:
    "A new authenticator, step one: the signed-in session, its CSRF token and a fresh code of the person's current authenticator; nothing stored.",
  PanelConfirmNewAuthenticator:
    "Step two: the same session and token, a secret sealed for this very session (another session's or another person's does not unseal) and a code of it.",
  PanelTestWebhook:
    "A ping from the panel: the signed-in session, its CSRF token, a role that may (owner, admin, developer); the event is the session's account's, to its own URL.",
  PanelRedeliverWebhook:
    "A redelivery from the panel: the signed-in session, its CSRF token, a role that may (owner, admin, developer); the event must be the session's account's (another's is the 404 of an unknown one), its series over.",
  PanelCheckoutPage: "The hosted checkout's settings page: the signed-in session's account's settings only; never a secret.",
  PanelSetCheckoutSigning:
    "Signed checkout forms on or off: the signed-in session, its CSRF token, owners, admins and developers, a fresh code; only the session's account changes.",
  PanelRotateCheckoutSecret:
    "A new checkout signing secret: the signed-in session, its CSRF token, owners, admins and developers, a fresh code; only the session's account's version moves, shown once.",
  PanelTeam: "The panel's team page: the signed-in session's account's people only (GSI1 partition of that account).",
  PanelInvitePerson:
    "An invite from the panel: the signed-in session, a CSRF token bound to it, owners and admins (only an owner invites an owner), a fresh code; the invite is for the session's account only.",
  PanelChangeRole:
    "A role change: the signed-in session, its CSRF token, owners and admins, a fresh code; only a person of the session's account (another's: 404); the last owner is never demoted (a conditional owner count).",
  PanelRemovePerson:
    "A removal: the same session, token, roles and code; only a person of the session's account; the last owner is never removed; the removed person's sessions stop at once, the invites they sent too. With `invite`: a pending invite of the session's account only (another's: 404), revoked.",
  PanelInvoices: "The panel's invoices page: GET /api/invoices' reader for the signed-in session's account, never another's.",
  PanelInvoice:
    "One invoice's page with its events and deliveries: the signed-in session's account only; another account's reference is the 404 of an unknown one.",
  PanelStatement: "The panel's statement: GET /api/balance/transactions' reader for the signed-in session's account, never another's.",
  PanelStatementCsv: "The statement's CSV export: the signed-in session's account only, and a role that may export (owner, admin, finance).",
  PanelOverview:
    "The panel's overview: the signed-in session of the panel's __Host- cookie (server-side, 30 min idle, 12 h at most) decides the account; no session → the sign-in page.",
};

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

type PanelSide = { person: Enrolled; jar: Jar; csrf: string; accountName: string };
let panelSides: Promise<{ victim: PanelSide; attacker: PanelSide }> | undefined;

/** A panel person of each account, signed in (made once): the victim's account holds R$ 250,00. */
function panelPair(): Promise<{ victim: PanelSide; attacker: PanelSide }> {
  panelSides ??= (async () => {
    const side = async (name: string): Promise<PanelSide> => {
      const person = await enrolledPerson('owner', `${name.toLowerCase()}${Date.now()}@example.com`, `Loja ${name} ${randomUUID().slice(0, 6)}`);
      const jar = new Jar();
      expect((await panelSignIn(jar, person)).status).toBe(303);
      const overview = await panelGet(jar, '/panel');
      const accountName = /<h2>([^<]+)<\/h2>/.exec(overview.text)?.[1] ?? '';
      return { person, jar, csrf: hidden(overview.text, 'csrf_token'), accountName };
    };
    const [victimSide, attackerSide] = await Promise.all([side('Vitima'), side('Atacante')]);
    expect((await admin('account', 'credit', '--account', victimSide.person.accountId, '--amount', '250.00')).code).toBe(0);
    return { victim: victimSide, attacker: attackerSide };
  })();
  return panelSides;
}
type CheckoutLink = { reference: string; token: string };

let victimPanelInvoice: Promise<string> | undefined;
/** A Pix invoice of the victim's account (its reference). */
function panelVictimInvoice(): Promise<string> {
  victimPanelInvoice ??= (async () => {
    const { victim: theirs } = await panelPair();
    const reply = await call('POST', '/api/pix/create', {
      headers: bearer(await tokenFor(theirs.person.keys)),
      body: common({ invoice_no: 'FATURA-DA-VITIMA' }),
    });
    expect(reply.status).toBe(200);
    return (reply.json as { invoice: { reference: string } }).invoice.reference;
  })();
  return victimPanelInvoice;
}

let victimPanelWithdrawal: Promise<string> | undefined;
/** A withdrawal of the victim's account (credited first with what it reserves: the victim's available balance stays R$ 250,00). */
function panelVictimWithdrawal(): Promise<string> {
  victimPanelWithdrawal ??= (async () => {
    const { victim: theirs } = await panelPair();
    expect((await admin('account', 'credit', '--account', theirs.person.accountId, '--amount', '10.00')).code).toBe(0);
    const reply = await call('POST', '/api/pixout/create', {
      headers: { ...bearer(await tokenFor(theirs.person.keys)), 'idempotency-key': randomUUID() },
      body: { amount: 10, pixkey: '52998224725', keytype: 'CPF', description: 'Saque da vitima' },
    });
    expect(reply.status).toBe(200);
    return (reply.json as { withdraw: { reference: string } }).withdraw.reference;
  })();
  return victimPanelWithdrawal;
}

const RATE_LIMIT_FOR_THIS_FILE = '100000';

type Victim = {
  keys: IssuedKeys;
  auth: Record<string, string>;
  customer: { id: string; document: string; name: string; email: string; body: Record<string, unknown>; idempotencyKey: string };
  pix: { reference: string; txid: string; id: string; invoiceNo: string; body: Record<string, unknown>; idempotencyKey: string };
  boleto: { reference: string; url: string; body: Record<string, unknown>; idempotencyKey: string };
  card: { reference: string; id: string; body: Record<string, unknown>; idempotencyKey: string };
  withdraw: { reference: string; body: Record<string, unknown>; idempotencyKey: string };
  checkout: CheckoutLink & { txRef: string; form: CheckoutFields };
  webhookUrl: string;
  balance: string;
};

let signingKey: Buffer;
let victim: Victim;
let attacker: { keys: IssuedKeys; auth: Record<string, string>; checkout: CheckoutLink };
let rotatedToken: string;

function json<T>(reply: Invoked): T {
  return reply.json as T;
}

async function tokenOf(issued: IssuedKeys): Promise<string> {
  const reply = await invokeRoute(routes.authToken, { headers: { authorization: basic(issued.public_key, issued.secret_key) } });
  expect(reply.status).toBe(200);
  return json<{ success: { token: string } }>(reply).success.token;
}

/** The entry form posted as the payer's browser posts it. */
function enterCheckout(fields: CheckoutFields): Promise<Invoked> {
  return invokeRoute(routes.checkoutEntry, { headers: FORM, body: new URLSearchParams(fields).toString() });
}

/** A checkout page's path, as its reference and token. */
function linkOfPath(path: string): CheckoutLink {
  const match = /^\/checkout\/(CHK-[A-Z0-9]{8})\/([A-Za-z0-9_-]{32})$/.exec(path);
  if (!match) throw new Error(`not a checkout page: ${path}`);
  return { reference: match[1] ?? '', token: match[2] ?? '' };
}

/** The checkout page's link in the entry's 303. */
function linkOf(reply: Invoked): CheckoutLink {
  if (reply.status !== 303) throw new Error(`expected a 303 to a checkout page, got ${reply.status} ${reply.body.slice(0, 300)}`);
  return linkOfPath(reply.headers.Location ?? '');
}

const pagePath = (link: CheckoutLink) => `/checkout/${link.reference}/${link.token}`;
/** A well-formed reference no checkout has (32^8 of them: a clash with a real one is out of reach). */
const unknownReference = () => `CHK-${Array.from({ length: 8 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[randomInt(32)]).join('')}`;

/** The victim's checkout as its merchant sees it (status, total…). */
/** The victim's checkout, asked by its own sale's total (other sales may share its tx_ref: issue 31). */
async function victimCheckout(): Promise<Record<string, unknown>> {
  const { amount, quantity } = victim.checkout.form;
  const total = ((Math.round(Number(amount) * 100) * Number(quantity)) / 100).toFixed(2);
  const reply = await ok(routes.getCheckout, { headers: victim.auth, params: { tx_ref: victim.checkout.txRef }, query: { total } });
  return json<{ checkout: Record<string, unknown> }>(reply).checkout;
}

async function ok(route: AnyRoute, request: RouteRequest, status = 200): Promise<Invoked> {
  const reply = await invokeRoute(route, request);
  if (reply.status !== status) throw new Error(`${route.id}: expected ${status}, got ${reply.status} ${reply.body}`);
  return reply;
}

/** Everything that identifies the victim's resources: none of it may reach another caller. */
function victimMarkers(): string[] {
  return [
    victim.keys.account_id,
    victim.customer.id,
    victim.customer.document,
    victim.customer.name,
    victim.customer.email,
    victim.pix.reference,
    victim.pix.txid,
    victim.pix.id,
    victim.boleto.reference,
    victim.card.reference,
    victim.card.id,
    victim.withdraw.reference,
    victim.checkout.reference,
    victim.checkout.token,
    victim.checkout.txRef,
    victim.webhookUrl,
    victim.balance,
  ];
}

function expectNoVictimData(reply: Invoked, except: readonly string[] = []): void {
  const leaked = victimMarkers().filter((marker) => !except.includes(marker) && reply.body.includes(marker));
  expect(leaked).toEqual([]);
}

/** The victim's business state: items of its partition and lists, balance, keys and webhook fields. */
async function victimState(): Promise<string> {
  const { db, table } = accountStore();
  const id = victim.keys.account_id;
  const own = await db.send(
    new QueryCommand({ TableName: table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `ACCT#${id}` }, ConsistentRead: true }),
  );
  const account = own.Items?.find((i) => i.SK === 'ACCOUNT');
  const [balance, entries] = await Promise.all([storedBalanceCents(id), ledgerEntriesOf(id)]);
  const listed = async (partition: string) => (await listedItems(partition)).map((i) => `${String(i.PK)} ${String(i.status)}`).sort();
  return JSON.stringify({
    keys: (own.Items ?? []).map((i) => String(i.SK)).sort(),
    balance,
    ledger: entries.map((i) => String(i.SK)).sort(),
    account: {
      kv: account?.kv,
      publicKey: account?.publicKey,
      webhookUrl: account?.webhookUrl,
      webhookSecretSealed: account?.webhookSecretSealed,
      methods: account?.methods,
    },
    invoices: await listed(keys.invoiceListPartition(id)),
    withdrawals: await listed(keys.withdrawListPartition(id)),
  });
}

/** A well-formed request for each route, naming the victim's resources where the route takes an identifier. */
function victimRequest(route: AnyRoute): RouteRequest {
  const params: Record<string, Record<string, string>> = {
    GetCustomer: { id: victim.customer.id },
    SearchCep: { cep: '01310-100' },
    GetInvoice: { invoice_id: victim.pix.id },
    CancelInvoice: { invoice_id: victim.pix.id },
    GetInvoiceByReference: { ref_id: victim.pix.reference },
    GetPixInvoiceByReference: { ref: victim.pix.reference },
    GetPixInvoiceByTxid: { txid: victim.pix.txid },
    GetWithdraw: { txid: victim.withdraw.reference },
    GetCheckout: { tx_ref: victim.checkout.txRef },
  };
  const bodies: Record<string, object> = {
    CreateCustomer: victim.customer.body,
    CreatePixCharge: victim.pix.body,
    CreateBoletoCharge: victim.boleto.body,
    CreateCardCharge: victim.card.body,
    CreateWithdraw: victim.withdraw.body,
    PutWebhook: { url: victim.webhookUrl },
  };
  const filled = Object.fromEntries([...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => [m[1] ?? '', params[route.id]?.[m[1] ?? ''] ?? '1']));
  return { params: filled, body: bodies[route.id], headers: route.idempotency === 'required' ? { 'idempotency-key': `sec-${randomUUID()}` } : {} };
}

beforeAll(async () => {
  useLocalStackEnvironment();
  // This file's process only: many calls of one account within a minute; its webhook target on loopback.
  process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = RATE_LIMIT_FOR_THIS_FILE;
  process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '127.0.0.1';
  signingKey = await tokenSigningKey();

  const victimKeys = await newAccount();
  const auth = bearer(await tokenOf(victimKeys));
  await creditAccount(accountStore(), victimKeys.account_id, 12_345_678);

  const customerRequest = customerBody(fullAddress());
  const customerKey = `sec-cust-${randomUUID()}`;
  const customer = json<{ customer: { id: number; document: string; name: string; email: string } }>(
    await ok(routes.createCustomer, { headers: { ...auth, 'idempotency-key': customerKey }, body: customerRequest }),
  ).customer;

  const pixRequest = common({ email: 'pagador.vitima@example.com', client: 'Pagador Vitima' });
  const pixKey = `sec-pix-${randomUUID()}`;
  const pix = json<{ invoice: { reference: string; txid: string } }>(
    await ok(routes.createPix, { headers: { ...auth, 'idempotency-key': pixKey }, body: pixRequest }),
  ).invoice;
  const pixInvoice = json<{ invoice: { id: number } }>(await ok(routes.getInvoiceByReference, { headers: auth, params: { ref_id: pix.reference } })).invoice;

  const boletoRequest = { ...common(), customer: customer.id };
  const boletoKey = `sec-boleto-${randomUUID()}`;
  const boleto = json<{ invoice: { reference: string; boleto: string } }>(
    await ok(routes.createBoleto, { headers: { ...auth, 'idempotency-key': boletoKey }, body: boletoRequest }),
  ).invoice;

  const cardRequest = cardBody();
  const cardKey = `sec-card-${randomUUID()}`;
  const card = json<{ invoice: { reference: string } }>(
    await ok(routes.createCard, { headers: { ...auth, 'idempotency-key': cardKey }, body: cardRequest }),
  ).invoice;
  const cardInvoice = json<{ invoice: { id: number } }>(await ok(routes.getInvoiceByReference, { headers: auth, params: { ref_id: card.reference } })).invoice;

  const withdrawRequest = { amount: 10, pixkey: 'recebedor.vitima@example.com', keytype: 'EMAIL', description: 'Fornecedor' };
  const withdrawKey = `sec-wd-${randomUUID()}`;
  const withdraw = json<{ withdraw: { reference: string } }>(
    await ok(routes.createWithdraw, { headers: { ...auth, 'idempotency-key': withdrawKey }, body: withdrawRequest }),
  ).withdraw;

  // Nothing listens on 127.0.0.1:443: the ping's attempts fail, which still records a delivery.
  const webhookUrl = `https://127.0.0.1:443/victim-${randomUUID()}`;
  await ok(routes.putWebhook, { headers: auth, body: { url: webhookUrl } });
  await ok(routes.testWebhook, { headers: auth }, 202);
  const balance = json<{ balance: { available: string } }>(await ok(routes.balance, { headers: auth })).balance.available;

  // A hosted checkout of the victim (with its Pix charge): only its payer's browser knows the page's link.
  const checkoutForm = entryForm(victimKeys);
  const checkoutLink = linkOf(await enterCheckout(checkoutForm));

  victim = {
    keys: victimKeys,
    auth,
    customer: {
      id: String(customer.id),
      document: customer.document,
      name: customer.name,
      email: customer.email,
      body: customerRequest,
      idempotencyKey: customerKey,
    },
    pix: {
      reference: pix.reference,
      txid: pix.txid,
      id: String(pixInvoice.id),
      invoiceNo: String(pixRequest.invoice_no),
      body: pixRequest,
      idempotencyKey: pixKey,
    },
    boleto: { reference: boleto.reference, url: boleto.boleto, body: boletoRequest, idempotencyKey: boletoKey },
    card: { reference: card.reference, id: String(cardInvoice.id), body: cardRequest, idempotencyKey: cardKey },
    withdraw: { reference: withdraw.reference, body: withdrawRequest, idempotencyKey: withdrawKey },
    checkout: { ...checkoutLink, txRef: checkoutForm.tx_ref ?? '', form: checkoutForm },
    webhookUrl,
    balance,
  };

  const attackerKeys = await newAccount();
  // The attacker's own checkout: a valid link, cookie and CSRF token, of another checkout.
  attacker = { keys: attackerKeys, auth: bearer(await tokenOf(attackerKeys)), checkout: linkOf(await enterCheckout(entryForm(attackerKeys))) };

  // A token from before a key rotation (`npm run admin -- account rotate-keys` calls rotateKeys).
  const rotated = await newAccount();
  rotatedToken = await tokenOf(rotated);
  await ok(routes.balance, { headers: bearer(rotatedToken) });
  await rotateKeys(accountStore(), rotated.account_id);
}, 60_000);

describe('the route table: every route is either Bearer-protected or public for a stated reason', () => {
  it('lists every route without a Bearer token, with the reason and what protects it instead', () => {
    const notBearer = routeList.filter((r) => r.auth !== 'bearer').map((r) => r.id);
    expect(notBearer.sort()).toEqual(Object.keys(PUBLIC_ROUTES).sort());
    for (const reason of Object.values(PUBLIC_ROUTES)) expect(reason.length).toBeGreaterThan(40);
  });
});

describe('bad credentials on every Bearer route → 401, nothing read, nothing written', () => {
  const bearerRoutes = routeList.filter((r) => r.auth === 'bearer');

  it('covers every Bearer route of the table', () => {
    expect(bearerRoutes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(bearerRoutes.map((r) => [r.id, r] as const))('%s', async (_id, route) => {
    const now = Math.floor(Date.now() / 1000);
    const id = victim.keys.account_id;
    const attackerToken = (attacker.auth.authorization ?? '').replace(/^Bearer /, '');
    const realToken = tokenSignedWith(signingKey, id, 1, now, now + 600);
    const cases: Record<string, Record<string, string>> = {
      'no Authorization header': {},
      'Basic keys instead of a token': { authorization: basic(victim.keys.public_key, victim.keys.secret_key) },
      'an expired token': bearer(tokenSignedWith(signingKey, id, 1, now - 7200, now - 1)),
      'a token from before a key rotation': bearer(rotatedToken),
      'a token signed with another key': bearer(tokenSignedWith(randomBytes(32), id, 1, now, now + 600)),
      "another account's signature over this account's claims": bearer(withPayloadOf(attackerToken, realToken)),
    };
    const before = await victimState();
    for (const [name, headers] of Object.entries(cases)) {
      const request = victimRequest(route);
      const reply = await invokeRoute(route, { ...request, headers: { ...request.headers, ...headers } });
      expect(reply.status, `${route.id}, ${name}`).toBe(401);
      expect(reply.json, `${route.id}, ${name}`).toMatchObject({ error: expect.any(String) });
      expectNoVictimData(reply);
    }
    expect(await victimState()).toBe(before);
  });
});

describe("another account's well-formed identifiers → 404 (or the caller's own data), never 403, never the owner's data", () => {
  /** One case per route: the attacker (a valid account) aims at the victim's resources. */
  /** A delivery of the victim's webhook whose series ended (succeeded or failed), read straight from the table. */
  const endedVictimDelivery = async () => {
    const ended = (item: Record<string, unknown>) => item.status === 'succeeded' || item.status === 'failed';
    const delivered = await eventually(
      () => listedItems(keys.deliveryListPartition(victim.keys.account_id)),
      (items) => items.some(ended),
      20_000,
      200,
    );
    return delivered.find(ended);
  };

  const CROSS_ACCOUNT: Readonly<Record<string, () => Promise<void>>> = {
    AuthToken: async () => {
      // The victim's public key with the attacker's secret (and the reverse): the key pair must match.
      for (const pair of [basic(victim.keys.public_key, attacker.keys.secret_key), basic(attacker.keys.public_key, victim.keys.secret_key)]) {
        const reply = await invokeRoute(routes.authToken, { headers: { authorization: pair } });
        expect(reply.status).toBe(401);
        expectNoVictimData(reply);
      }
    },
    GetBalance: async () => {
      const reply = await invokeRoute(routes.balance, { headers: attacker.auth });
      expect(reply.json).toEqual({ balance: { available: '0.00', reserved: '0.00', currency: 'BRL' } });
      expectNoVictimData(reply);
    },
    ListBalanceTransactions: async () => {
      // The victim's ledger entries (its operator credit, card payment and withdrawal) never reach another caller, whatever the filter.
      const victimEntries = (await ledgerEntriesOf(victim.keys.account_id)).map((item) => String(item.entryId));
      expect(victimEntries.length).toBeGreaterThanOrEqual(3);
      const today = brazilDate(new Date());
      for (const query of [{}, { limit: '50' }, { type: 'withdrawal' }, { type: 'adjustment' }, { start: '2020-01-01', end: today }] as Record<
        string,
        string
      >[]) {
        const reply = await invokeRoute(routes.balanceTransactions, { headers: attacker.auth, query });
        expect(reply.status).toBe(200);
        for (const entryId of victimEntries) expect(reply.body).not.toContain(entryId);
        expectNoVictimData(reply);
      }
      // Its owner sees them; without a token, 401 and nothing.
      const owner = await ok(routes.balanceTransactions, { headers: victim.auth, query: { limit: '50' } });
      expect(
        json<{ transactions: { id: string }[] }>(owner)
          .transactions.map((t) => t.id)
          .sort(),
      ).toEqual([...victimEntries].sort());
      const anonymous = await invokeRoute(routes.balanceTransactions, { query: { limit: '50' } });
      expect(anonymous.status).toBe(401);
      for (const entryId of victimEntries) expect(anonymous.body).not.toContain(entryId);
      expectNoVictimData(anonymous);
    },
    CreateCustomer: async () => {
      // The victim's Idempotency-Key and body: scoped by account, so a new customer, never the victim's replay.
      const reply = await ok(routes.createCustomer, {
        headers: { ...attacker.auth, 'idempotency-key': victim.customer.idempotencyKey },
        body: victim.customer.body,
      });
      expect(reply.headers['Idempotent-Replayed']).toBeUndefined();
      expect(String(json<{ customer: { id: number } }>(reply).customer.id)).not.toBe(victim.customer.id);
      expectNoVictimData(reply, [victim.customer.document, victim.customer.name, victim.customer.email]);
    },
    GetCustomer: async () => {
      const reply = await invokeRoute(routes.getCustomer, { headers: attacker.auth, params: { id: victim.customer.id } });
      expect(reply.status).toBe(404);
      expectNoVictimData(reply);
    },
    ListCustomers: async () => {
      for (const query of [{ document: victim.customer.document }, { name: victim.customer.name }, { email: victim.customer.email }, {}] as Record<
        string,
        string
      >[]) {
        const reply = await invokeRoute(routes.listCustomers, { headers: attacker.auth, query });
        expect(reply.status).toBe(200);
        expect(reply.body).not.toContain(victim.customer.id);
        expect(reply.body).not.toContain(victim.keys.account_id);
      }
    },
    ListCountries: async () => {
      const reply = await invokeRoute(routes.listCountries, { headers: attacker.auth });
      expect(reply.status).toBe(200);
      expectNoVictimData(reply);
    },
    ListStates: async () => {
      const reply = await invokeRoute(routes.listStates, { headers: attacker.auth });
      expect(reply.status).toBe(200);
      expectNoVictimData(reply);
    },
    SearchCep: async () => {
      // Reference data shared by all accounts: nothing of an account to aim at.
      const reply = await invokeRoute(routes.searchCep, { headers: attacker.auth, params: { cep: '01310-100' } });
      expect(reply.status).toBe(200);
      expectNoVictimData(reply);
    },
    CreatePixCharge: async () => {
      const reply = await ok(routes.createPix, { headers: { ...attacker.auth, 'idempotency-key': victim.pix.idempotencyKey }, body: victim.pix.body });
      expect(reply.headers['Idempotent-Replayed']).toBeUndefined();
      expectNoVictimData(reply);
    },
    CreateBoletoCharge: async () => {
      // The victim's customer in the body: the same answer as an unknown customer (422 on the field, spec 5.5).
      const reply = await invokeRoute(routes.createBoleto, {
        headers: { ...attacker.auth, 'idempotency-key': victim.boleto.idempotencyKey },
        body: victim.boleto.body,
      });
      expect(reply.status).toBe(422);
      expect(reply.json).toEqual({ error: { customer: ['Not one of your customers'] } });
      expectNoVictimData(reply);
    },
    CreateCardCharge: async () => {
      const reply = await ok(routes.createCard, { headers: { ...attacker.auth, 'idempotency-key': victim.card.idempotencyKey }, body: victim.card.body });
      expect(reply.headers['Idempotent-Replayed']).toBeUndefined();
      expectNoVictimData(reply);
    },
    ListInvoices: async () => {
      for (const query of [{ invoice_no: victim.pix.invoiceNo }, { email: 'pagador.vitima@example.com' }, {}] as Record<string, string>[]) {
        const reply = await invokeRoute(routes.listInvoices, { headers: attacker.auth, query });
        expect(reply.status).toBe(200);
        expectNoVictimData(reply);
      }
    },
    GetInvoice: async () => {
      for (const id of [victim.pix.id, victim.card.id]) {
        const reply = await invokeRoute(routes.getInvoice, { headers: attacker.auth, params: { invoice_id: id } });
        expect(reply.status).toBe(404);
        expectNoVictimData(reply);
      }
    },
    CancelInvoice: async () => {
      // Issue 46: another account's invoice is not found, and stays as it was (the victim's snapshot is compared after).
      for (const id of [victim.pix.id, victim.card.id]) {
        const reply = await invokeRoute(routes.cancelInvoice, { headers: attacker.auth, params: { invoice_id: id } });
        expect(reply.status).toBe(404);
        expectNoVictimData(reply);
      }
    },
    GetInvoiceByReference: async () => {
      for (const reference of [victim.pix.reference, victim.boleto.reference, victim.card.reference]) {
        const reply = await invokeRoute(routes.getInvoiceByReference, { headers: attacker.auth, params: { ref_id: reference } });
        expect(reply.status).toBe(404);
        expectNoVictimData(reply);
      }
    },
    GetPixInvoiceByReference: async () => {
      const reply = await invokeRoute(routes.getPixByReference, { headers: attacker.auth, params: { ref: victim.pix.reference } });
      expect(reply.status).toBe(404);
      expectNoVictimData(reply);
    },
    GetPixInvoiceByTxid: async () => {
      const reply = await invokeRoute(routes.getPixByTxid, { headers: attacker.auth, params: { txid: victim.pix.txid } });
      expect(reply.status).toBe(404);
      expectNoVictimData(reply);
    },
    CreateWithdraw: async () => {
      // The victim's key and body from a new account with no balance: refused, never the victim's withdraw replayed.
      const empty = bearer(await tokenOf(await newAccount()));
      const reply = await invokeRoute(routes.createWithdraw, {
        headers: { ...empty, 'idempotency-key': victim.withdraw.idempotencyKey },
        body: victim.withdraw.body,
      });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 'insufficient_balance' });
      expectNoVictimData(reply);
    },
    GetWithdraw: async () => {
      const reply = await invokeRoute(routes.getWithdraw, { headers: attacker.auth, params: { txid: victim.withdraw.reference } });
      expect(reply.status).toBe(404);
      expectNoVictimData(reply);
    },
    ListWithdrawals: async () => {
      const reply = await invokeRoute(routes.listWithdrawals, { headers: attacker.auth });
      expect(reply.status).toBe(200);
      expectNoVictimData(reply);
    },
    GetWebhook: async () => {
      const reply = await invokeRoute(routes.getWebhook, { headers: attacker.auth });
      expect(reply.status).toBe(200);
      expectNoVictimData(reply);
    },
    PutWebhook: async () => {
      // Acts on the caller's own account only: the victim's URL and secret stay as they were.
      const before = await victimState();
      const reply = await ok(routes.putWebhook, { headers: attacker.auth, body: { url: `https://127.0.0.1:443/attacker-${randomUUID()}` } });
      expectNoVictimData(reply);
      expect(await victimState()).toBe(before);
    },
    RotateWebhookSecret: async () => {
      await ok(routes.putWebhook, { headers: attacker.auth, body: { url: `https://127.0.0.1:443/attacker-${randomUUID()}` } });
      const before = await victimState();
      const reply = await ok(routes.rotateWebhookSecret, { headers: attacker.auth });
      expectNoVictimData(reply);
      expect(await victimState()).toBe(before);
    },
    TestWebhook: async () => {
      await ok(routes.putWebhook, { headers: attacker.auth, body: { url: `https://127.0.0.1:443/attacker-${randomUUID()}` } });
      const reply = await ok(routes.testWebhook, { headers: attacker.auth }, 202);
      expectNoVictimData(reply);
    },
    ListWebhookDeliveries: async () => {
      const delivered = await eventually(
        () => listedItems(keys.deliveryListPartition(victim.keys.account_id)),
        (items) => items.length > 0,
        20_000,
        200,
      );
      expect(delivered.length).toBeGreaterThan(0);
      const reply = await invokeRoute(routes.webhookDeliveries, { headers: attacker.auth });
      expect(reply.status).toBe(200);
      for (const item of delivered) expect(reply.body).not.toContain(String(item.eventId));
      expectNoVictimData(reply);
    },
    ListEvents: async () => {
      // The victim's recorded events (issue 29) are never listed for another account.
      const events = await eventually(
        () => listedItems(keys.eventListPartition(victim.keys.account_id)),
        (items) => items.length > 0,
        20_000,
        200,
      );
      const reply = await invokeRoute(routes.listEvents, { headers: attacker.auth, query: { limit: '50' } });
      expect(reply.status).toBe(200);
      for (const item of events) expect(reply.body).not.toContain(String(item.eventId));
      expectNoVictimData(reply);
    },
    GetEvent: async () => {
      const [event] = await listedItems(keys.eventListPartition(victim.keys.account_id));
      expect(event?.eventId).toMatch(/^evt_/);
      const reply = await invokeRoute(routes.getEvent, { params: { id: String(event?.eventId) }, headers: attacker.auth });
      expect(reply.status).toBe(404);
      expectNoVictimData(reply);
    },
    RedeliverEvent: async () => {
      // Another account's event: 404, its delivery untouched (no new series).
      const delivered = await endedVictimDelivery();
      const reply = await invokeRoute(routes.redeliverEvent, { params: { id: String(delivered?.eventId) }, headers: attacker.auth });
      expect(reply.status).toBe(404);
      expectNoVictimData(reply);
      const after = (await listedItems(keys.deliveryListPartition(victim.keys.account_id))).find((item) => item.eventId === delivered?.eventId);
      expect(after?.series).toBe(delivered?.series);
    },
    ProviderNotification: async () => {
      // Not an account's route: the provider names charges, and only its signature is trusted.
      const body = JSON.stringify(notification('pix-paid', { txid: victim.pix.txid }));
      const forged = signatureHeader(body, `not-${await providerSecret()}`, Math.floor(Date.now() / 1000));
      for (const headers of [{}, { [SIMULATED_SIGNATURE_HEADER]: forged }] as Record<string, string>[]) {
        const reply = await invokeRoute(routes.providerNotification, { params: { name: 'simulated' }, headers, body });
        expect(reply.status).toBe(401);
        expectNoVictimData(reply);
      }
      const invoice = await ok(routes.getPixByReference, { headers: victim.auth, params: { ref: victim.pix.reference } });
      expect(json<{ invoice: { status: string } }>(invoice).invoice.status).toBe('PENDING');
    },
    ProviderPixCallback: async () => {
      // Not an account's route: a callback naming the victim's txid, under any path token, moves nothing here.
      const body = JSON.stringify({ pix: [{ endToEndId: `E${'7'.repeat(31)}`, txid: victim.pix.txid, valor: '1.00', horario: new Date().toISOString() }] });
      for (const name of ['apipix', 'simulated']) {
        const reply = await invokeRoute(routes.providerPixCallback, { params: { name, token: 'A'.repeat(32) }, body });
        expect([401, 404]).toContain(reply.status);
        expectNoVictimData(reply);
      }
      const invoice = await ok(routes.getPixByReference, { headers: victim.auth, params: { ref: victim.pix.reference } });
      expect(json<{ invoice: { status: string } }>(invoice).invoice.status).toBe('PENDING');
    },
    BoletoPage: async () => {
      const [, reference = '', token = ''] = new URL(victim.boleto.url).pathname.split('/').slice(1);
      expect(reference).toBe(victim.boleto.reference);
      const page = await ok(routes.boletoPage, { params: { reference, token } });
      expect(page.body).toContain(victim.boleto.reference);
      expect(page.body).not.toContain(victim.customer.document);
      // The attacker's own boleto link does not open the victim's boleto, nor does a altered token.
      const customer = json<{ customer: { id: number } }>(
        await ok(routes.createCustomer, { headers: attacker.auth, body: customerBody(fullAddress()) }),
      ).customer;
      const own = json<{ invoice: { boleto: string } }>(
        await ok(routes.createBoleto, { headers: attacker.auth, body: { ...common(), customer: customer.id } }),
      ).invoice;
      const ownToken = new URL(own.boleto).pathname.split('/')[3] ?? '';
      const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      for (const wrong of [ownToken, altered, '']) {
        const reply = await invokeRoute(routes.boletoPage, { params: { reference, token: wrong } });
        expect(reply.status).toBe(404);
        expectNoVictimData(reply);
      }
    },
    OpenApiDocument: async () => {
      // A static public document: no account's data to aim at.
      const reply = await ok(routes.openApiDocument, {});
      expectNoVictimData(reply);
    },
    CheckoutEntry: async () => {
      const before = await victimCheckout();
      // Another merchant's form with the victim's tx_ref: that merchant's own checkout, never the victim's.
      const other = await newAccount();
      const theirs = linkOf(await enterCheckout(entryForm(other, { tx_ref: victim.checkout.txRef })));
      expect(theirs.reference).not.toBe(victim.checkout.reference);
      const seen = await ok(routes.getCheckout, { headers: bearer(await tokenOf(other)), params: { tx_ref: victim.checkout.txRef } });
      expect(json<{ checkout: { reference: string } }>(seen).checkout.reference).toBe(theirs.reference);
      expectNoVictimData(seen, [victim.checkout.txRef]);
      // The victim's public key (public by design) and tx_ref with another amount: a checkout of its own
      // (issue 31: the tx_ref is not squatted, and nothing tells that it exists), the victim's untouched.
      const altered = await enterCheckout({ ...victim.checkout.form, amount: '0.01' });
      expect(altered.status).toBe(303);
      expect(linkOf(altered).reference).not.toBe(victim.checkout.reference);
      expectNoVictimData(altered);
      // The victim's secret key where the public key goes: refused on the field, not echoed, no checkout.
      const secret = await enterCheckout(entryForm(victim.keys, { public_key: victim.keys.secret_key }));
      expect(secret.status).toBe(422);
      expect(secret.body).not.toContain(victim.keys.secret_key);
      expect(secret.body).toContain('data-field="public_key"');
      expect(await victimCheckout()).toEqual(before);
    },
    CheckoutPage: async () => {
      const { reference, token } = victim.checkout;
      expect((await ok(routes.checkoutPage, { params: { reference, token } })).headers['Content-Type']).toBe('text/html; charset=utf-8');
      // The attacker's own link opens its own page; its token (or an altered one) on the victim's reference is the 404 of an unknown checkout.
      await ok(routes.checkoutPage, { params: attacker.checkout });
      const unknown = await invokeRoute(routes.checkoutPage, { params: { reference: unknownReference(), token: attacker.checkout.token } });
      expect(unknown.status).toBe(404);
      const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      for (const params of [
        { reference, token: attacker.checkout.token },
        { reference, token: altered },
        { reference: attacker.checkout.reference, token },
      ]) {
        const reply = await invokeRoute(routes.checkoutPage, { params });
        expect(reply.status).toBe(404);
        expect(reply.body).toBe(unknown.body);
        expectNoVictimData(reply);
      }
    },
    // The merchant panel (issue 27): a person of each account, signed in; the attacker aims at the victim's.
    PanelSignInPage: async () => {
      const { attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/entrar');
      expect([page.status, page.location]).toEqual([303, '/panel']);
    },
    PanelSignIn: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const jar = new Jar();
      const page = await panelGet(jar, '/panel/entrar');
      const reply = await panelPost(jar, '/panel/entrar', {
        csrf_token: hidden(page.text, 'csrf_token'),
        email: theirs.person.email,
        password: mine.person.password,
      });
      expect(reply.status).toBe(401);
      expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    },
    PanelCodePage: async () => {
      const { attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/entrar/codigo');
      expect([page.status, page.location]).toEqual([303, '/panel/entrar']);
    },
    PanelCode: async () => {
      // The attacker's own sign-in, completed with the victim's current code: refused.
      const { victim: theirs, attacker: mine } = await panelPair();
      const jar = new Jar();
      const page = await panelGet(jar, '/panel/entrar');
      expect(
        (await panelPost(jar, '/panel/entrar', { csrf_token: hidden(page.text, 'csrf_token'), email: mine.person.email, password: mine.person.password }))
          .status,
      ).toBe(303);
      const codePage = await panelGet(jar, '/panel/entrar/codigo');
      const victimCode = codeFor(theirs.person.secret, 1);
      if (victimCode === codeFor(mine.person.secret, 1)) return;
      expect((await panelPost(jar, '/panel/entrar/codigo', { csrf_token: hidden(codePage.text, 'csrf_token'), code: victimCode })).status).toBe(401);
    },
    PanelForgotPage: async () => {
      const page = await panelGet(new Jar(), '/panel/senha/esqueci');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('@example.com');
    },
    PanelForgotPassword: async () => {
      // The attacker asks a link for the victim's e-mail: the same answer as for anyone, and no link in it.
      const { victim: theirs } = await panelPair();
      const jar = new Jar();
      const page = await panelGet(jar, '/panel/senha/esqueci');
      const reply = await panelPost(jar, '/panel/senha/esqueci', { csrf_token: hidden(page.text, 'csrf_token'), email: theirs.person.email });
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain('/panel/senha/redefinir/');
    },
    PanelResetPage: async () => {
      expect((await panelGet(new Jar(), `/panel/senha/redefinir/${randomBytes(32).toString('base64url')}`)).status).toBe(404);
    },
    PanelResetPassword: async () => {
      // A made-up link with a valid form: 404, and the victim's password still signs in.
      const { victim: theirs } = await panelPair();
      const jar = new Jar();
      const page = await panelGet(jar, '/panel/senha/esqueci');
      const reply = await panelPost(jar, `/panel/senha/redefinir/${randomBytes(32).toString('base64url')}`, {
        csrf_token: hidden(page.text, 'csrf_token'),
        password: 'uma frase longa e boa 2026',
        confirmation: 'uma frase longa e boa 2026',
        code: codeFor(theirs.person.secret),
      });
      expect(reply.status).toBe(404);
      const signInPage = await panelGet(new Jar(), '/panel/entrar');
      expect(signInPage.status).toBe(200);
    },
    PanelInvitePage: async () => {
      const made = await panelGet(new Jar(), `/panel/convite/${randomBytes(32).toString('base64url')}`);
      expect(made.status).toBe(404);
    },
    PanelAcceptInvite: async () => {
      const jar = new Jar();
      const page = await panelGet(jar, '/panel/entrar');
      const token = randomBytes(32).toString('base64url');
      const reply = await panelPost(jar, `/panel/convite/${token}`, {
        csrf_token: hidden(page.text, 'csrf_token'),
        enrollment: 'v1.a.b.c',
        password: 'uma frase longa e boa 2026',
        confirmation: 'uma frase longa e boa 2026',
        code: '123456',
      });
      expect(reply.status).toBe(404);
    },
    PanelSignOut: async () => {
      // The victim's session cookie with the attacker's CSRF token: 403, and the victim stays signed in.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/sair', { csrf_token: mine.csrf })).status).toBe(403);
      expect((await panelGet(theirs.jar, '/panel')).status).toBe(200);
    },
    PanelCustomers: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const token = await tokenFor(theirs.person.keys);
      const name = `Cliente da Vitima ${randomUUID().slice(0, 8)}`;
      expect((await call('POST', '/api/customer', { headers: bearer(token), body: { ...customerBody(fullAddress()), name } })).status).toBe(200);
      expect((await panelGet(theirs.jar, '/panel/clientes')).text).toContain(name);
      const page = await panelGet(mine.jar, `/panel/clientes?name=${encodeURIComponent(name)}`);
      expect(page.status).toBe(200);
      // The filter's own value comes back in its field; no row of the victim's customers does.
      expect(page.text).not.toContain(`<td>${name}</td>`);
      expect(page.text).toContain('Nenhum cliente encontrado.');
    },
    PanelCustomer: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const created = await call('POST', '/api/customer', {
        headers: bearer(await tokenFor(theirs.person.keys)),
        body: { ...customerBody(fullAddress()), name: 'Cliente Secreto Da Vitima' },
      });
      const id = (created.json as { customer: { id: number } }).customer.id;
      expect((await panelGet(theirs.jar, `/panel/clientes/${id}`)).text).toContain('Cliente Secreto Da Vitima');
      const page = await panelGet(mine.jar, `/panel/clientes/${id}`);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('Cliente Secreto Da Vitima');
    },
    PanelMethods: async () => {
      const { attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/metodos');
      expect(page.status).toBe(200);
      expect(page.text).toContain('data-method="pix"');
    },
    PanelKeysPage: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/chaves');
      expect(page.status).toBe(200);
      expect(page.text).toContain(mine.person.keys.public_key);
      expect(page.text).not.toContain(theirs.person.keys.public_key);
    },
    PanelRotateKeys: async () => {
      // The victim's session with the attacker's CSRF token and code: 403 before anything is read; the victim's keys still work.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/chaves', { csrf_token: mine.csrf, code: codeFor(mine.person.secret) })).status).toBe(403);
      const basicPair = `Basic ${Buffer.from(`${theirs.person.keys.public_key}:${theirs.person.keys.secret_key}`).toString('base64')}`;
      expect((await invokeRoute(routes.authToken, { headers: { authorization: basicPair } })).status).toBe(200);
    },
    PanelWebhooksPage: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/webhooks');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(theirs.person.email);
    },
    PanelSetWebhook: async () => {
      // The victim's session with the attacker's CSRF token: 403 before anything is read; the victim's webhook unchanged.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      const before = (await panelGet(theirs.jar, '/panel/webhooks')).text.match(/id="webhook-url">([^<]*)</)?.[1];
      expect((await panelPost(mixed, '/panel/webhooks', { csrf_token: mine.csrf, url: 'https://127.0.0.13:8443/evil', code: '123456' })).status).toBe(403);
      expect((await panelGet(theirs.jar, '/panel/webhooks')).text.match(/id="webhook-url">([^<]*)</)?.[1]).toBe(before);
    },
    PanelRotateWebhookSecret: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/webhooks/segredo', { csrf_token: mine.csrf, code: '123456' })).status).toBe(403);
    },
    PanelAuditLog: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/auditoria');
      expect(page.status).toBe(200);
      expect(page.text).toContain(mine.person.email);
      expect(page.text).not.toContain(theirs.person.email);
    },
    PanelWithdrawals: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const reference = await panelVictimWithdrawal();
      expect((await panelGet(theirs.jar, '/panel/saques')).text).toContain(reference);
      const page = await panelGet(mine.jar, '/panel/saques');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(reference);
      expect(page.text).toContain('Nenhum saque encontrado.');
    },
    PanelRequestWithdrawal: async () => {
      // The victim's session with the attacker's CSRF token and code: 403 before anything is read; nothing reserved.
      const { victim: theirs, attacker: mine } = await panelPair();
      const before = (await call('GET', '/api/pixout/list', { headers: bearer(await tokenFor(theirs.person.keys)) })).json;
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      const form = { csrf_token: mine.csrf, amount: '5,00', keytype: 'CPF', pixkey: '52998224725', code: codeFor(mine.person.secret) };
      expect((await panelPost(mixed, '/panel/saques', form)).status).toBe(403);
      expect((await call('GET', '/api/pixout/list', { headers: bearer(await tokenFor(theirs.person.keys)) })).json).toEqual(before);
    },
    PanelWithdrawal: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const reference = await panelVictimWithdrawal();
      expect((await panelGet(theirs.jar, `/panel/saques/${reference}`)).status).toBe(200);
      const page = await panelGet(mine.jar, `/panel/saques/${reference}`);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('Saque da vitima');
      expect(page.text).not.toContain('52998224725');
    },
    PanelSecurity: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/seguranca');
      expect(page.status).toBe(200);
      expect(page.text).toContain(mine.person.email);
      expect(page.text).not.toContain(theirs.person.email);
      expect(page.text).not.toContain(theirs.jar.ip);
    },
    PanelChangePassword: async () => {
      // The victim's session with the attacker's CSRF token and the victim's own password: 403, nothing changed.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      const next = 'uma senha do atacante 2026';
      expect(
        (await panelPost(mixed, '/panel/seguranca/senha', { csrf_token: mine.csrf, current: theirs.person.password, password: next, confirmation: next }))
          .status,
      ).toBe(403);
      expect((await panelGet(theirs.jar, '/panel')).status).toBe(200);
    },
    PanelSignOutEverywhere: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/seguranca/sessoes', { csrf_token: mine.csrf })).status).toBe(403);
      expect((await panelGet(theirs.jar, '/panel')).status).toBe(200);
    },
    PanelStartNewAuthenticator: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/seguranca/autenticador', { csrf_token: mine.csrf, code: codeFor(mine.person.secret) })).status).toBe(403);
    },
    PanelConfirmNewAuthenticator: async () => {
      // A secret sealed for the attacker's session does not open in the victim's: nothing replaced.
      const { victim: theirs, attacker: mine } = await panelPair();
      const reply = await panelPost(theirs.jar, '/panel/seguranca/autenticador/confirmar', {
        csrf_token: theirs.csrf,
        enrollment: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
        code: codeFor(mine.person.secret),
      });
      expect(reply.status).toBe(422);
      expect((await panelGet(theirs.jar, '/panel')).status).toBe(200);
    },
    PanelTestWebhook: async () => {
      // The victim's session with the attacker's CSRF token: 403, no event recorded for the victim.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/webhooks/teste', { csrf_token: mine.csrf })).status).toBe(403);
      expect((await panelGet(theirs.jar, '/panel/auditoria')).text).not.toContain('data-action="webhook.test_sent"');
    },
    PanelRedeliverWebhook: async () => {
      // The attacker's own session and token, naming an event another account's webhook received: 404, its delivery untouched.
      const { attacker: mine } = await panelPair();
      const delivered = await endedVictimDelivery();
      expect(delivered?.eventId).toMatch(/^evt_/);
      const before = delivered?.series;
      const reply = await panelPost(mine.jar, '/panel/webhooks/reenviar', { csrf_token: mine.csrf, event: String(delivered?.eventId) });
      expect(reply.status).toBe(404);
      expect(reply.text).not.toContain(String(delivered?.url ?? '-'));
      const after = (await listedItems(keys.deliveryListPartition(victim.keys.account_id))).find((item) => item.eventId === delivered?.eventId);
      expect(after?.series).toBe(before);
      expect(after?.status).toBe(delivered?.status);
    },
    PanelCheckoutPage: async () => {
      const { attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/checkout');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('cks_');
    },
    PanelSetCheckoutSigning: async () => {
      // The victim's session with the attacker's CSRF token (and a code of the attacker's): 403, the victim's settings unchanged.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect((await panelPost(mixed, '/panel/checkout', { csrf_token: mine.csrf, require: 'on', code: codeFor(mine.person.secret) })).status).toBe(403);
      expect(elementText((await panelGet(theirs.jar, '/panel/checkout')).text, 'checkout-signing')).toBe('opcionais');
    },
    PanelRotateCheckoutSecret: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      const reply = await panelPost(mixed, '/panel/checkout/segredo', { csrf_token: mine.csrf, code: codeFor(mine.person.secret) });
      expect(reply.status).toBe(403);
      expect(reply.text).not.toContain('cks_');
      expect(elementText((await panelGet(theirs.jar, '/panel/checkout')).text, 'checkout-secret-state')).toBe('nenhum');
    },
    PanelTeam: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel/equipe');
      expect(page.status).toBe(200);
      expect(page.text).toContain(mine.person.email);
      expect(page.text).not.toContain(theirs.person.email);
    },
    PanelInvitePerson: async () => {
      // The victim's session with the attacker's CSRF token: 403 before anything is read; no invite.
      const { victim: theirs, attacker: mine } = await panelPair();
      const mixed = new Jar();
      mixed.take({ 'set-cookie': [`${SESSION_COOKIE}=${theirs.jar.get(SESSION_COOKIE) ?? ''}; Path=/`] });
      expect(
        (await panelPost(mixed, '/panel/equipe', { csrf_token: mine.csrf, email: `intruso${Date.now()}@example.com`, role: 'owner', code: '123456' })).status,
      ).toBe(403);
      expect(await panelGet(theirs.jar, '/panel/auditoria').then((p) => p.text)).not.toContain('data-action="team.invited"');
    },
    PanelChangeRole: async () => {
      // The attacker's own session naming the victim's person: not a person of its account (404), the victim still owner.
      const { victim: theirs, attacker: mine } = await panelPair();
      const victimId = /<tr data-person="([^"]+)"/.exec((await panelGet(theirs.jar, '/panel/equipe')).text)?.[1] ?? '';
      expect(victimId).not.toBe('');
      const reply = await panelPost(mine.jar, '/panel/equipe/papel', { csrf_token: mine.csrf, person: victimId, role: 'viewer', code: '123456' });
      expect(reply.status).toBe(404);
      expect((await panelGet(theirs.jar, '/panel/equipe')).text).toContain('data-role="owner"');
    },
    PanelRemovePerson: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const victimId = /<tr data-person="([^"]+)"/.exec((await panelGet(theirs.jar, '/panel/equipe')).text)?.[1] ?? '';
      expect((await panelPost(mine.jar, '/panel/equipe/remover', { csrf_token: mine.csrf, person: victimId, code: '123456' })).status).toBe(404);
      expect((await panelGet(theirs.jar, '/panel')).status).toBe(200);
      // A pending invite of the victim's account named from the attacker's (issue 43: the same route revokes invites): 404, the link still works.
      const invite = (await admin('panel', 'invite', '--account', theirs.person.accountId, '--email', `pendente${Date.now()}@example.com`, '--role', 'viewer'))
        .json as { invite_url: string };
      const inviteId = /<tr data-invite="([^"]+)"/.exec((await panelGet(theirs.jar, '/panel/equipe')).text)?.[1] ?? '';
      expect(inviteId).not.toBe('');
      expect((await panelPost(mine.jar, '/panel/equipe/remover', { csrf_token: mine.csrf, invite: inviteId, code: '123456' })).status).toBe(404);
      expect((await panelGet(new Jar(), new URL(invite.invite_url).pathname)).status).toBe(200);
    },
    PanelInvoices: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const reference = await panelVictimInvoice();
      expect((await panelGet(theirs.jar, '/panel/faturas')).text).toContain(reference);
      const page = await panelGet(mine.jar, '/panel/faturas?invoice_no=FATURA-DA-VITIMA');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(reference);
      expect(page.text).toContain('Nenhuma fatura encontrada.');
    },
    PanelInvoice: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const reference = await panelVictimInvoice();
      expect((await panelGet(theirs.jar, `/panel/faturas/${reference}`)).status).toBe(200);
      const page = await panelGet(mine.jar, `/panel/faturas/${reference}`);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('FATURA-DA-VITIMA');
    },
    PanelStatement: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      expect((await panelGet(theirs.jar, '/panel/extrato')).text).toContain('R$ 250,00');
      const page = await panelGet(mine.jar, '/panel/extrato');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('R$ 250,00');
      expect(page.text).toContain('Nenhum lançamento encontrado.');
    },
    PanelStatementCsv: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      expect((await panelGet(theirs.jar, '/panel/extrato/csv')).text).toContain('250.00');
      const file = await panelGet(mine.jar, '/panel/extrato/csv');
      expect(file.status).toBe(200);
      expect(file.text).toBe('id,created_at,type,amount,reserved,reference,description\r\n');
    },
    PanelOverview: async () => {
      const { victim: theirs, attacker: mine } = await panelPair();
      const page = await panelGet(mine.jar, '/panel');
      expect(page.status).toBe(200);
      expect(page.text).toContain(mine.accountName);
      expect(page.text).not.toContain(theirs.accountName);
      expect(page.text).not.toContain(theirs.person.email);
      expect(page.text).not.toContain('R$ 250,00');
      expect((await panelGet(theirs.jar, '/panel')).text).toContain('R$ 250,00');
    },
    CheckoutCardPayment: async () => {
      // Each attempt pays with a card the simulated provider approves: any hole would pay the victim's checkout.
      const before = await victimState();
      const mine = await openPage(pagePath(attacker.checkout));
      const theirs = await openPage(pagePath(victim.checkout));
      expect(mine.csrf && theirs.csrf && mine.cookie.startsWith('chk_csrf=') && theirs.cookie.startsWith('chk_csrf=')).toBeTruthy();
      const pay = (params: CheckoutLink, csrf: string, cookie?: string) =>
        invokeRoute(routes.checkoutCard, {
          params,
          headers: { ...FORM, ...(cookie ? { cookie } : {}) },
          body: new URLSearchParams(cardFields(csrf)).toString(),
        });
      const attempts: [string, () => Promise<Invoked>, number][] = [
        [
          "the attacker's token on the victim's reference",
          () => pay({ reference: victim.checkout.reference, token: attacker.checkout.token }, mine.csrf, mine.cookie),
          404,
        ],
        ["the attacker's cookie and CSRF token (of its own checkout) on the victim's link", () => pay(victim.checkout, mine.csrf, mine.cookie), 403],
        ["the victim page's CSRF token without its cookie (a cross-site post)", () => pay(victim.checkout, theirs.csrf), 403],
        ["the victim page's CSRF token with the attacker's cookie", () => pay(victim.checkout, theirs.csrf, mine.cookie), 403],
        ["the victim page's cookie with the attacker's CSRF token", () => pay(victim.checkout, mine.csrf, theirs.cookie), 403],
      ];
      for (const [name, attempt, status] of attempts) {
        const reply = await attempt();
        expect(reply.status, name).toBe(status);
        expectNoVictimData(reply);
      }
      expect(await victimCheckout()).toMatchObject({ status: 'PENDING', payment_type: null });
      expect(await victimState()).toBe(before);
    },
    CheckoutStatus: async () => {
      const { reference, token } = victim.checkout;
      const own = await ok(routes.checkoutStatus, { params: { reference, token } });
      expect(own.json).toEqual({ status: 'PENDING', redirect_url: null });
      const unknown = await invokeRoute(routes.checkoutStatus, { params: { reference: unknownReference(), token: attacker.checkout.token } });
      expect(unknown.status).toBe(404);
      for (const params of [
        { reference, token: attacker.checkout.token },
        { reference: attacker.checkout.reference, token },
      ]) {
        const reply = await invokeRoute(routes.checkoutStatus, { params });
        expect(reply.status).toBe(404);
        expect(reply.body).toBe(unknown.body);
        expectNoVictimData(reply);
      }
    },
    GetCheckout: async () => {
      // Another account's tx_ref: the same 404 as a tx_ref nobody used; without a token, 401.
      const unknown = await invokeRoute(routes.getCheckout, { headers: attacker.auth, params: { tx_ref: `order-${randomUUID()}` } });
      expect(unknown.status).toBe(404);
      const aimed = await invokeRoute(routes.getCheckout, { headers: attacker.auth, params: { tx_ref: victim.checkout.txRef } });
      expect(aimed.status).toBe(404);
      expect(aimed.body).toBe(unknown.body);
      expectNoVictimData(aimed);
      const anonymous = await invokeRoute(routes.getCheckout, { params: { tx_ref: victim.checkout.txRef } });
      expect(anonymous.status).toBe(401);
      expectNoVictimData(anonymous);
      // Its owner reads it.
      expect(await victimCheckout()).toMatchObject({ reference: victim.checkout.reference, tx_ref: victim.checkout.txRef });
    },
  };

  it('has a case for every route of the table', () => {
    expect(routeList.map((r) => r.id).filter((id) => !(id in CROSS_ACCOUNT))).toEqual([]);
  });

  it.each(routeList.map((r) => [r.id] as const))('%s', async (id) => {
    const check = CROSS_ACCOUNT[id];
    expect(check, `no cross-account case for ${id}`).toBeDefined();
    await check?.();
  });
});

describe('no secret or personal datum in clear after the sensitive routes (table and logs)', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'leak-scan-'));
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The leaks among the items that name the account (its partition, its invoices, keys, idempotency records…). */
  const storedLeaksOf = async (accountId: string) => {
    const client = new DynamoDBClient({ ...localAwsConfig(), endpoint: stack().dynamodbEndpoint });
    try {
      return (await scanTable(client, stack().tableName, (item) => JSON.stringify(item).includes(accountId))).leaks;
    } finally {
      client.destroy();
    }
  };

  it('auth with the secret key, a card with its CVV (the API and the checkout card form), customers and withdrawals with documents, webhook secrets: none stored or logged in clear', async () => {
    const stackLog = stackLogFile(stack().port);
    const fromByte = existsSync(stackLog) ? statSync(stackLog).size : 0;
    const capture = captureLogLines();
    const issued = await newAccount();
    const used: string[] = [issued.secret_key];
    let httpCalls = 0;
    try {
      // The same calls through the local stack (its log) and in this process (this worker's output).
      for (const via of ['http', 'in-process'] as const) {
        const send = async (route: AnyRoute, request: RouteRequest): Promise<{ status: number; json: unknown }> => {
          if (via === 'in-process') return invokeRoute(route, request);
          httpCalls += 1;
          const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
          const reply = await call(route.method, path, { headers: request.headers, body: request.body });
          return { status: reply.status, json: reply.json };
        };
        // The hosted checkout's card form as a payer types it (form-encoded, the number with spaces, then bare): declined, then approved.
        // First: its public routes log no account id, and the later calls' lines show that the stack's log has caught up.
        const page =
          via === 'http'
            ? String((await postForm('/ext_transfer', entryForm(issued))).headers.location ?? '')
            : pagePath(linkOf(await enterCheckout(entryForm(issued))));
        // The page through the stack (the in-process invoker keeps no Set-Cookie): its cookie and CSRF token.
        const opened = await openPage(page);
        for (const [number, status] of [
          ['4000 0000 0000 0002', 400],
          ['4111111111111111', 303],
        ] as const) {
          const fields = cardFields(opened.csrf, { creditcard_number: number, creditcard_cvv: '735' });
          const paid =
            via === 'http'
              ? await postForm(`${page}/card`, fields, { cookie: opened.cookie })
              : await invokeRoute(routes.checkoutCard, {
                  params: linkOfPath(page),
                  headers: { ...FORM, cookie: opened.cookie },
                  body: new URLSearchParams(fields).toString(),
                });
          expect(paid.status, `checkout card ${via}`).toBe(status);
        }
        used.push('4111111111111111', '4000000000000002');

        const authReply = await send(routes.authToken, { headers: { authorization: basic(issued.public_key, issued.secret_key) } });
        expect(authReply.status).toBe(200);
        const token = (authReply.json as { success: { token: string } }).success.token;
        used.push(token);
        const auth = bearer(token);

        const cpf = randomCpf();
        const punctuated = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
        used.push(cpf);
        const customer = await send(routes.createCustomer, {
          headers: { ...auth, 'idempotency-key': `leak-cust-${randomUUID()}` },
          body: customerBody({ ...fullAddress(), document: punctuated, phone: '+55 (11) 3333-4444', mobilephone: '(11) 98765-4321' }),
        });
        expect(customer.status).toBe(200);

        const card = await send(routes.createCard, {
          headers: { ...auth, 'idempotency-key': `leak-card-${randomUUID()}` },
          body: cardBody({ creditcard_number: '4111111111111111', creditcard_cvv: '735' }),
        });
        expect(card.status).toBe(200);
        const declined = await send(routes.createCard, { headers: auth, body: cardBody({ creditcard_number: '4000000000000002', creditcard_cvv: '735' }) });
        expect(declined.status).toBe(400);

        const payer = randomCpf();
        used.push(payer);
        const pix = await send(routes.createPix, { headers: auth, body: common({ document: payer, client: 'Pagador', email: 'pagador@example.com' }) });
        expect(pix.status).toBe(200);

        await creditAccount(accountStore(), issued.account_id, 10_000);
        const pixkey = randomCpf();
        const document = randomCpf();
        used.push(pixkey, document);
        const withdraw = await send(routes.createWithdraw, {
          headers: { ...auth, 'idempotency-key': `leak-wd-${randomUUID()}` },
          body: { amount: 1, pixkey, keytype: 'CPF', client: 'Recebedor', document, email: 'recebedor@example.com' },
        });
        expect(withdraw.status).toBe(200);

        const put = await send(routes.putWebhook, { headers: auth, body: { url: `https://127.0.0.1:443/leak-${randomUUID()}` } });
        expect(put.status).toBe(200);
        const rotated = await send(routes.rotateWebhookSecret, { headers: auth });
        expect(rotated.status).toBe(200);
        for (const reply of [put, rotated]) {
          const secret = (reply.json as { webhook: { secret?: string } }).webhook.secret;
          if (secret) used.push(secret);
        }
      }
      expect(used.filter((v) => v.startsWith('whsec_'))).toHaveLength(3);

      // The stack writes its log lines asynchronously: wait for this account's request lines.
      const stackLines = await eventually(
        () => (existsSync(stackLog) ? readFileSync(stackLog).subarray(fromByte).toString('utf8') : ''),
        (text) => text.split('\n').filter((l) => l.includes(issued.account_id)).length >= httpCalls - 1,
        10_000,
      );
      const inProcess = capture.lines();
      expect(stackLines.split('\n').filter((l) => l.includes(issued.account_id)).length).toBeGreaterThanOrEqual(httpCalls - 1);
      expect(inProcess.filter((l) => l.includes(issued.account_id)).length).toBeGreaterThanOrEqual(httpCalls - 1);

      const logged = [...scanLogFile(stackLog, { fromByte }).leaks, ...findLogLeaks(inProcess.join('\n')).map((l) => ({ ...l, file: 'in-process output' }))];
      const stored = await storedLeaksOf(issued.account_id);
      expect(describeLeaks(stored, logged)).toBe('');

      // The exact values too, whatever their shape (booleans, so a failure does not print them).
      const text = `${stackLines}\n${inProcess.join('\n')}`;
      for (const value of used) expect(text.includes(value), `a ${value.slice(0, 4)}… value in the logs`).toBe(false);
    } finally {
      capture.stop();
    }
  }, 60_000);

  it('would catch a deliberate leak: the file scanner reports the line and kind, never the value', async () => {
    const issued = await newAccount();
    const file = join(scratch, 'leaky.log');
    const lines = [
      JSON.stringify({ level: 'INFO', message: 'request', route: 'CreateCardCharge', accountId: issued.account_id, status: 200 }),
      JSON.stringify({ level: 'INFO', message: 'oops', key: issued.secret_key }),
      JSON.stringify({ level: 'INFO', message: 'oops', body: { creditcard_number: '4111111111111111', creditcard_cvv: '735' } }),
      JSON.stringify({ level: 'INFO', message: 'oops', customer: { document: randomCpf() } }),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const { leaks } = scanLogFile(file);
    expect(leaks).toEqual([
      { kind: 'secret-key', file, line: 2 },
      { kind: 'card-number', file, line: 3 },
      { kind: 'cvv', file, line: 3 },
      { kind: 'taxpayer-document', file, line: 4 },
    ]);
    expect(describeLeaks([], leaks)).not.toContain(issued.secret_key);
  });

  it('would catch a deliberate leak in a stored item, naming the key and attribute only', () => {
    const raw: Record<string, AttributeValue> = {
      PK: { S: 'IDEM#acct_x#k' },
      SK: { S: 'IDEM' },
      body: { S: JSON.stringify({ customer: { document: '529.982.247-25' } }) },
      card: { M: { number: { S: '4111 1111 1111 1111' }, cvv: { S: '735' } } },
      amounts: { L: [{ N: '4111111111111111' }] },
    };
    expect(storedLeaks([raw])).toEqual([
      { kind: 'taxpayer-document', PK: 'IDEM#acct_x#k', SK: 'IDEM', attribute: 'body' },
      { kind: 'card-number', PK: 'IDEM#acct_x#k', SK: 'IDEM', attribute: 'card.number' },
      { kind: 'cvv', PK: 'IDEM#acct_x#k', SK: 'IDEM', attribute: 'card.cvv' },
      { kind: 'card-number', PK: 'IDEM#acct_x#k', SK: 'IDEM', attribute: 'amounts[0]' },
    ]);
  });

  it("copies this worker's in-process log lines to the run's worker log, which the global teardown scans", async () => {
    const { workerLogDir } = inject('leakScan');
    const issued = await newAccount();
    const reply = await invokeRoute(routes.balance, { headers: bearer(await tokenOf(issued)) });
    expect(reply.status).toBe(200);
    const file = join(workerLogDir, `worker-logs-${process.pid}.jsonl`);
    const copied = await eventually(
      () => (existsSync(file) ? readFileSync(file, 'utf8') : ''),
      (text) => text.includes(issued.account_id),
      5_000,
    );
    expect(copied.split('\n').some((line) => line.includes(issued.account_id) && line.includes('"route":"GetBalance"'))).toBe(true);
  });
});
