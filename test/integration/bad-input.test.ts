import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext, toHttpApiEvent } from '../../infra/local/apigw-event';
import { creditAccount, type IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { openPartitions } from '../../shared/adapters/dynamo/checkout-item';
import type { AnyRoute } from '../../shared/http/route';
import { routeList, routes } from '../../shared/http/routes';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { SIMULATED_CARDS, SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, admin, basic, bearer, call as httpCall, newAccount, tokenFor, uniqueIp, useLocalStackEnvironment } from '../support/api';
import { enrolledPerson, get as panelGet, hidden, Jar, signIn } from '../support/panel';
import { PRE_SESSION_COOKIE, SESSION_COOKIE } from '../../shared/http/panel/cookies';
import { cardBody, common } from '../support/charges';
import { ledgerEntriesOf, storedBalanceCents } from '../support/ledger';
import { cardFields, entryForm } from '../support/checkout';
import { customerBody, fullAddress } from '../support/customers';
import { deepArray, DuplicateKeys, hostileKey, hostileString, hostileValue, hostileWholeBody, nearIds, RawJson, toJsonText } from '../support/hostile-values';
import { passesLuhn } from '../support/leak-scan';
import { ROOT } from '../support/local-stack-process';
import { expectConforms } from '../support/openapi-check';
import { providerSecret } from '../support/provider';

/**
 * Bad input on every route of shared/http/routes.ts, driven in-process through the real handlers and the
 * local table: fast-check properties over bodies, query strings, path parameters and headers, valid
 * and broken. The guarantees: never a 500; every error in the spec's shapes (spec 7), or, on the
 * routes that answer a browser (the hosted checkout's), an HTML page with its Content-Security-Policy
 * and no internals; and nothing written on a rejection (the account's items, lists, open checkouts and
 * balance change exactly as the accepted requests explain).
 */

type Input = { params?: Record<string, string>; query?: readonly (readonly [string, string])[]; body?: string; headers?: Record<string, string> };
type Reply = { status: number; headers: Record<string, string>; cookies: string[]; body: string; json: unknown };
type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const handlers = new Map<string, Promise<Handler>>();

function handlerOf(route: AnyRoute): Promise<Handler> {
  let loaded = handlers.get(route.id);
  if (!loaded) {
    loaded = import(join(ROOT, route.handler)).then((module: { handler: Handler }) => module.handler);
    handlers.set(route.id, loaded);
  }
  return loaded;
}

/** The path with its parameters filled in (percent-encoded) and the query string, as a client would send them. */
function urlOf(route: AnyRoute, input: Input): string {
  // A URL cannot carry a lone surrogate: the client's encoder would write U+FFFD (the path parameters go to the handler as they are).
  const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
  const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encode(input.params?.[name] ?? 'x'));
  const query = (input.query ?? []).map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  return query ? `${path}?${query}` : path;
}

/** One call of the route's real handler with the API Gateway v2 event the gateway would build, from a fresh source address. */
async function send(route: AnyRoute, input: Input): Promise<Reply> {
  const handler = await handlerOf(route);
  const event = toHttpApiEvent(
    {
      method: route.method,
      url: urlOf(route, input),
      headers: input.headers ?? {},
      body: Buffer.from(input.body ?? '', 'utf8'),
      sourceIp: uniqueIp(),
      host: 'localhost',
    },
    `${route.method} ${route.path}`,
    input.params,
  );
  const result = (await handler(event, lambdaContext(route.id))) as APIGatewayProxyStructuredResultV2;
  const body = result.body ?? '';
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const reply = { status: result.statusCode ?? 0, headers: (result.headers ?? {}) as Record<string, string>, cookies: result.cookies ?? [], body, json };
  // Hostile requests too: every answer must be one the OpenAPI document declares. A path parameter
  // that is a dot segment ('.' or '..') cannot reach a handler over HTTP (CloudFront, API Gateway and
  // any URL parser fold it into the path), so its URL names no route: only the handler is tried then.
  const dotSegment = Object.values(input.params ?? {}).some((value) => value === '.' || value === '..');
  if (!dotSegment) await expectConforms({ method: route.method, url: urlOf(route, input), status: reply.status, headers: reply.headers, body });
  return reply;
}

/** 5xx answers a route may give for reasons other than bad input (the CEP fixture's "services down", the card processor). */
const UPSTREAM_CODES = new Set(['upstream_unavailable', 'upstream_error', 'temporary_conflict']);

const HTML_TYPE = 'text/html; charset=utf-8';
/** What a page must never show: a stack frame, a source file's path, an error's name and message. */
const INTERNALS: readonly RegExp[] = [/^\s*at /m, /\.ts:/, /Error:/];
/** A checkout page's link: its reference and the HMAC token of 32 base64url characters. */
const CHECKOUT_PAGE_PATH = /^\/checkout\/(CHK-[A-Z0-9]{8})\/([A-Za-z0-9_-]{32})$/;

/**
 * The answers of a route that answers a browser (`route.browser`: the hosted checkout's entry, page and
 * card form): a redirect names where to go; every page, error or not, is HTML with the checkout's
 * Content-Security-Policy and shows no internals. Never a 500: a 5xx page only for the upstream
 * failures the HTML tells apart by status alone (502 from the provider, 503 busy).
 */
function expectBrowserShape(route: AnyRoute, reply: Reply, where: string): void {
  if (reply.status >= 300 && reply.status < 400) {
    expect(reply.status, where).toBe(303);
    expect(reply.headers.Location, where).toMatch(/^(\/|https:\/\/)/);
    return;
  }
  // A download the route documents (the panel's CSV export): its own type, as an attachment, never cached.
  const documented = (route.responses as Record<number, { contentType?: string } | undefined>)[200]?.contentType;
  if (reply.status === 200 && documented !== undefined && documented !== HTML_TYPE) {
    expect(reply.headers['Content-Type'], where).toBe(documented);
    expect(reply.headers['Content-Disposition'], where).toMatch(/^attachment; filename="[\w.-]+"$/);
    expect(reply.headers['Cache-Control'], where).toContain('no-store');
    return;
  }
  expect(reply.headers['Content-Type'], where).toBe(HTML_TYPE);
  expect(reply.headers['Content-Security-Policy'], where).toMatch(/(^|; )default-src 'none'(;|$)/);
  expect(reply.body, where).toMatch(/^<!doctype html>/);
  // The payer's entries come back (escaped) in value="…" attributes of the card form: only the page's own text is searched.
  const own = reply.body.replace(/ value="[^"]*"/g, '');
  for (const internal of INTERNALS) expect(internal.test(own), `${where}: the page matches ${String(internal)}`).toBe(false);
  if (reply.status >= 500) expect([502, 503], where).toContain(reply.status);
  // A validation page names its fields: the entry form's list, or the card form's marked inputs.
  if (reply.status === 422) expect(/ data-field="| aria-invalid="true"/.test(own), where).toBe(true);
}

/** The error shapes of spec 7: general `{"error": string, "code"?: string}`; validation 422 `{"error": {field: [messages]}}`. Never a 500. */
function expectSpecShape(route: AnyRoute, reply: Reply, context: string): void {
  const where = `${route.id} ${context} → ${reply.status} ${reply.body.slice(0, 300)}`;
  expect(reply.status, where).not.toBe(500);
  expect(reply.status, where).toBeGreaterThanOrEqual(200);
  if (route.browser) {
    expectBrowserShape(route, reply, where);
    return;
  }
  if (reply.status < 400) return;
  expect(reply.headers['Content-Type'], where).toMatch(/^application\/json/);
  const json = reply.json as Record<string, unknown> | undefined;
  expect(json !== null && typeof json === 'object' && !Array.isArray(json), where).toBe(true);
  if (!json) return;
  if (reply.status >= 500) expect(UPSTREAM_CODES.has(String(json.code)), where).toBe(true);
  if (reply.status === 422 && typeof json.error === 'object') {
    expect(Object.keys(json), where).toEqual(['error']);
    const fields = Object.entries(json.error as Record<string, unknown>);
    expect(fields.length, where).toBeGreaterThan(0);
    for (const [field, messages] of fields) {
      expect(field.length, where).toBeGreaterThan(0);
      expect(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string' && m.length > 0), where).toBe(true);
    }
    return;
  }
  expect(
    Object.keys(json).every((k) => k === 'error' || k === 'code'),
    where,
  ).toBe(true);
  expect(typeof json.error === 'string' && json.error.length > 0, where).toBe(true);
  if (json.code !== undefined) expect(String(json.code), where).toMatch(/^[a-z_]+$/);
}

/** What the account holds: its items, its lists (with statuses), its open checkouts, its balance and webhook settings (never the rate counters). */
type Snapshot = {
  customers: number;
  ledger: number;
  balanceCents: number;
  webhookUrl: unknown;
  webhookSecret: unknown;
  kv: unknown;
  invoices: string[];
  withdrawals: string[];
  /** The account's open checkouts (PENDING or UNKNOWN, from the upkeep's index), `reference:status`: one paid or abandoned leaves it. */
  checkouts: string[];
};

async function openCheckouts(accountId: string): Promise<string[]> {
  const store = accountStore();
  const found: string[] = [];
  for (const partition of [...openPartitions('open'), ...openPartitions('unknown')]) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await store.db.send(
        new QueryCommand({
          TableName: store.table,
          IndexName: 'GSI2',
          KeyConditionExpression: 'GSI2PK = :pk',
          FilterExpression: 'accountId = :account',
          ExpressionAttributeValues: { ':pk': partition, ':account': accountId },
          ExclusiveStartKey: start,
        }),
      );
      found.push(...(page.Items ?? []).map((i) => `${String(i.reference)}:${String(i.status)}`));
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return found.sort();
}

async function snapshot(accountId: string): Promise<Snapshot> {
  const store = accountStore();
  const own = await store.db.send(
    new QueryCommand({
      TableName: store.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `ACCT#${accountId}` },
      ConsistentRead: true,
    }),
  );
  const items = own.Items ?? [];
  const account = items.find((i) => i.SK === 'ACCOUNT') ?? {};
  const list = async (partition: string) =>
    (
      await store.db.send(
        new QueryCommand({
          TableName: store.table,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': partition },
        }),
      )
    ).Items ?? [];
  // (Webhook deliveries are left out: the stack's sender writes them later, from events, not the request.)
  const [invoices, withdrawals, checkouts] = await Promise.all([
    list(keys.invoiceListPartition(accountId)),
    list(keys.withdrawListPartition(accountId)),
    openCheckouts(accountId),
  ]);
  return {
    customers: items.filter((i) => String(i.SK).startsWith('CUSTOMER#')).length,
    ledger: (await ledgerEntriesOf(accountId)).length,
    balanceCents: await storedBalanceCents(accountId),
    webhookUrl: account.webhookUrl,
    webhookSecret: account.webhookSecretSealed,
    kv: account.kv,
    invoices: invoices.map((i) => `${String(i.reference)}:${String(i.status)}`).sort(),
    withdrawals: withdrawals.map((i) => `${String(i.reference)}:${String(i.status)}`).sort(),
    checkouts,
  };
}

const centsOf = (text: unknown) => Math.round(Number(text) * 100);

/** The snapshot the accepted (2xx) replies of one route explain; anything else must leave the account as it was. */
function explained(route: AnyRoute, before: Snapshot, after: Snapshot, accepted: Reply[]): Snapshot {
  const expected = { ...before };
  const bodies = accepted.map((r) => r.json as Record<string, Record<string, unknown>>);
  switch (route.id) {
    case routes.createCustomer.id:
      expected.customers += accepted.length;
      break;
    case routes.createPix.id:
    case routes.createBoleto.id:
    case routes.createCard.id:
      // New invoices: the references the accepted replies name, PENDING (or PAID for cards).
      expected.invoices = [
        ...before.invoices,
        ...bodies.map((b) => `${String(b.invoice?.reference)}:${route.id === routes.createCard.id ? 'PAID' : 'PENDING'}`),
      ].sort();
      if (route.id === routes.createCard.id) {
        expected.balanceCents += bodies.reduce((sum, b) => sum + centsOf(b.invoice?.total), 0);
        // One payment entry per approved card.
        expected.ledger += bodies.length;
      }
      break;
    case routes.cancelInvoice.id: {
      // The one invoice a cancellation accepted (issue 46) is CANCELED; nothing else moves (no balance: it was never paid).
      const canceled = new Set(bodies.map((b) => String(b.invoice?.reference)));
      expected.invoices = before.invoices.map((entry) => (canceled.has(entry.split(':')[0] ?? '') ? `${entry.split(':')[0]}:CANCELED` : entry)).sort();
      break;
    }
    case routes.createWithdraw.id:
      expected.withdrawals = [...before.withdrawals, ...bodies.map((b) => `${String(b.withdraw?.reference)}:PENDING`)].sort();
      expected.balanceCents -= bodies.reduce((sum, b) => sum + centsOf(b.withdraw?.amount) + centsOf(b.withdraw?.fee), 0);
      // A withdrawal entry, and a fee entry when there is a fee.
      expected.ledger += bodies.reduce((sum, b) => sum + 1 + (centsOf(b.withdraw?.fee) > 0 ? 1 : 0), 0);
      break;
    case routes.putWebhook.id:
      if (accepted.length > 0) {
        expected.webhookUrl = bodies[bodies.length - 1]?.webhook?.url;
        if (before.webhookSecret === undefined) expected.webhookSecret = after.webhookSecret;
      }
      break;
    case routes.rotateWebhookSecret.id:
      if (accepted.length > 0) expected.webhookSecret = after.webhookSecret;
      break;
    case routes.checkoutEntry.id:
      // Each 303 leads to a checkout: a new one (PENDING), or the one its tx_ref already has.
      expected.checkouts = [
        ...new Set([...before.checkouts, ...accepted.map((r) => `${CHECKOUT_PAGE_PATH.exec(r.headers.Location ?? '')?.[1] ?? 'no-reference'}:PENDING`)]),
      ].sort();
      break;
    default:
      break;
  }
  return expected;
}

// ---------------------------------------------------------------------------------------------
// Inputs

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  '',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
];

/** Headers a client could send: any content type (octet-stream makes the gateway base64-encode the body), sometimes an Idempotency-Key, right or wrong. */
const headersArb = (auth: Record<string, string>) =>
  fc
    .record({
      contentType: fc.constantFrom(...CONTENT_TYPES),
      key: fc.option(
        fc.oneof(
          fc.uuid().map((u) => `fz-${u}`),
          hostileString.filter((s) => s.length < 2000),
        ),
        { nil: undefined },
      ),
    })
    .map(({ contentType, key }) => ({
      ...auth,
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(key !== undefined ? { 'idempotency-key': key } : {}),
    }));

/** A body for a route: the valid one, or it broken in one of many ways, or something that is not an object at all. */
function bodyArb(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const fields = Object.keys(valid);
  const withField = (field: string, value: unknown) => {
    const copy: Record<string, unknown> = { ...valid };
    Object.defineProperty(copy, field, { value, enumerable: true, writable: true, configurable: true });
    return copy;
  };
  const field = fc.constantFrom(...fields);
  return fc.oneof(
    { arbitrary: fc.constant(toJsonText(valid)), weight: 1 },
    { arbitrary: fc.tuple(field, hostileValue).map(([f, v]) => toJsonText(withField(f, v))), weight: 5 },
    {
      arbitrary: fc
        .array(fc.tuple(field, hostileValue), { minLength: 2, maxLength: 4 })
        .map((pairs) => toJsonText(pairs.reduce((b, [f, v]) => ({ ...b, [f]: v }), valid))),
      weight: 2,
    },
    {
      arbitrary: fc.subarray(fields, { minLength: 1 }).map((gone) => toJsonText(Object.fromEntries(Object.entries(valid).filter(([k]) => !gone.includes(k))))),
      weight: 2,
    },
    { arbitrary: fc.tuple(hostileKey, hostileValue).map(([k, v]) => toJsonText(withField(k, v))), weight: 2 },
    {
      arbitrary: fc.tuple(field, hostileValue).map(([f, v]) => toJsonText(new DuplicateKeys([...Object.entries(valid), [f, v]]))),
      weight: 1,
    },
    { arbitrary: hostileWholeBody, weight: 2 },
  );
}

/** Query strings: the route's own names and others, with values right and wrong; names may repeat. */
function queryArb(names: string[], near: string[]): fc.Arbitrary<(readonly [string, string])[]> {
  const name = names.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 3 }, { arbitrary: hostileKey, weight: 1 }) : hostileKey;
  const value = near.length > 0 ? fc.oneof(fc.constantFrom(...near), hostileString) : hostileString;
  return fc.array(fc.tuple(name, value), { maxLength: 5 });
}

const QUERY_NEAR = ['1', '2', '10', '50', '51', '0', '-1', '1.5', '1e3', '2030-01-01', '2030-12-31', '2020-02-30', 'PAID', 'PENDING', 'paid', 'maria', '529'];

/** Path parameters: the route's names, each with a hostile string or one in a nearly right shape; never empty (the gateway would not route it). */
function paramsArb(route: AnyRoute, extra: fc.Arbitrary<string>[] = []): fc.Arbitrary<Record<string, string>> {
  const names = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] ?? '');
  const value = fc.oneof(hostileString, nearIds, ...extra).filter((s) => s.length > 0);
  return fc.record(Object.fromEntries(names.map((n) => [n, value])));
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Mostly what a browser's form sends; now and then another type (binary ones reach the handler base64-encoded). */
const formContentType = fc.oneof(
  { arbitrary: fc.constant(FORM_TYPE), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      `${FORM_TYPE}; charset=UTF-8`,
      'multipart/form-data; boundary=x',
      'text/plain',
      '',
      'application/octet-stream',
      'application/json',
    ),
    weight: 1,
  },
);

/** A browser's headers: a content type and, sometimes, a Cookie header. */
const browserHeadersArb = (cookie: fc.Arbitrary<string | undefined>) =>
  fc.record({ contentType: formContentType, cookie }).map(({ contentType, cookie: value }) => ({
    ...(contentType ? { 'content-type': contentType } : {}),
    ...(value !== undefined ? { cookie: value } : {}),
  }));

const formText = (pairs: readonly (readonly [string, string])[]) => new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString();

/**
 * An application/x-www-form-urlencoded body: the valid form, or it with fields replaced by hostile
 * strings, dropped, sent twice, other names added, written by hand (unencoded), or no form at all.
 */
function formArb(valid: Record<string, string>, extraNames: readonly string[]): fc.Arbitrary<string> {
  const entries = Object.entries(valid);
  const names = Object.keys(valid);
  const field = fc.constantFrom(...names);
  const replaced = (changes: readonly (readonly [string, string])[]) => {
    const copy = new Map(entries);
    for (const [name, value] of changes) copy.set(name, value);
    return formText([...copy]);
  };
  return fc.oneof(
    { arbitrary: fc.constant(formText(entries)), weight: 1 },
    { arbitrary: fc.tuple(field, hostileString).map(([f, v]) => replaced([[f, v]])), weight: 5 },
    { arbitrary: fc.array(fc.tuple(field, hostileString), { minLength: 2, maxLength: 4 }).map(replaced), weight: 2 },
    { arbitrary: fc.subarray(names, { minLength: 1 }).map((gone) => formText(entries.filter(([k]) => !gone.includes(k)))), weight: 2 },
    {
      arbitrary: fc.tuple(field, fc.option(hostileString, { nil: undefined })).map(([f, v]) => formText([...entries, [f, v ?? valid[f] ?? '']])),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.oneof(hostileKey, fc.constantFrom(...extraNames)), fc.oneof(hostileString, fc.stringMatching(/^[0-9a-f]{64}$/)))
        .map(([k, v]) => formText([...entries, [k, v]])),
      weight: 2,
    },
    { arbitrary: fc.tuple(field, hostileString).map(([f, v]) => entries.map(([k, x]) => `${k}=${k === f ? v : x}`).join('&')), weight: 1 },
    {
      arbitrary: fc.oneof(hostileWholeBody, hostileString, fc.constantFrom('&', '=', '&&==&', '%', '%zz=%zz', 'title=%E0%A4%A', '=x&=y', '+'.repeat(100))),
      weight: 2,
    },
  );
}

/** A card form whose number could be approved (a valid card other than the declined one): left out, so nothing is ever credited. */
function mayBeApproved(body: string): boolean {
  return new URLSearchParams(body).getAll('creditcard_number').some((value) => {
    const digits = value.replace(/[\s-]/g, '');
    return /^\d+$/.test(digits) && passesLuhn(digits) && digits !== SIMULATED_CARDS.declined;
  });
}

// ---------------------------------------------------------------------------------------------
// Fixture

let accountId = '';
let auth: Record<string, string> = {};
let hooksAccountId = '';
let hooksAuth: Record<string, string> = {};
let basicAuth: Record<string, string> = {};
let customerId = 0;
/** An account with the card only (no Pix charge at the entry): its checkouts are the only thing the entry writes. */
let cardKeys: IssuedKeys = { account_id: '', public_key: '', secret_key: '' };
let cardAccountId = '';
/** A checkout of the card-only account (its link, and a browser's CSRF cookie and token from its page) and one of the main account. */
let checkout = { reference: '', token: '', cookie: '', csrf: '', mainTxRef: '', mainToken: '' };
let existing: {
  pixReference: string;
  pixTxid: string;
  boletoReference: string;
  withdrawReference: string;
  boletoToken: string;
  invoiceId: string;
  /** A Pix invoice of its own for the cancellation's fuzzing (issue 46): the others stay PENDING for their routes. */
  cancelInvoiceId: string;
} = {
  cancelInvoiceId: '',
  pixReference: '',
  pixTxid: '',
  boletoReference: '',
  withdrawReference: '',
  boletoToken: '',
  invoiceId: '',
};

/** A merchant panel person of another account (issue 27): a browser's pre-session and signed-in cookies with their forms' CSRF tokens, and an invite's token. */
let panel = { email: '', preCookie: '', preCsrf: '', sessionCookie: '', sessionCsrf: '', inviteToken: '' };

/** The Cookie header of the panel's browser: its own cookie, none, or a wrong or hostile one. */
const panelCookieArb = (own: () => string): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { arbitrary: fc.constant(undefined).map(() => own()), weight: 3 },
    {
      arbitrary: fc.oneof(
        fc.constant(undefined),
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((v) => `${SESSION_COOKIE}=${v}`),
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((v) => `${PRE_SESSION_COOKIE}=${v}`),
        hostileString.map((v) => `${SESSION_COOKIE}=${v}`),
        hostileString,
      ),
      weight: 2,
    },
  );

function validCharge(): Record<string, unknown> {
  return { ...common({ invoice_no: 'FUZZ-1' }), notes: 'fuzz' };
}

type Case = {
  /** Which account's state must be explained (the webhook routes get their own account). */
  account: () => string;
  input: () => fc.Arbitrary<Input>;
  runs: number;
  /** What this route must answer to this input, beyond the shapes (e.g. a wrong checkout link is a 404). */
  check?: (input: Input, reply: Reply, where: string) => void;
};

const bodyCase = (valid: () => Record<string, unknown>, who: () => Record<string, string> = () => auth, runs = 40): Omit<Case, 'account'> => ({
  input: () => fc.record({ body: bodyArb(valid()), headers: headersArb(who()) }),
  runs,
});

const queryCase = (names: string[], runs = 25): Omit<Case, 'account'> => ({
  input: () => fc.record({ query: queryArb(names, QUERY_NEAR), headers: headersArb(auth) }),
  runs,
});

const main = () => accountId;
const hooks = () => hooksAccountId;
const cardOnly = () => cardAccountId;

const nonEmpty = (s: string) => s.length > 0;
const ODD_TX_REFS = [
  'a'.repeat(3_000),
  '\u0000',
  'order\u0000',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '😀',
  'order/1',
  'order%2F1',
  '..',
  'ORDER-1 ',
  'a'.repeat(101),
];

/** A checkout link: the real one, its reference with a wrong token (another checkout's, altered, well-shaped, hostile), or neither. */
function linkArb(route: AnyRoute): fc.Arbitrary<Record<string, string>> {
  const altered = () => `${checkout.token.slice(0, -1)}${checkout.token.endsWith('A') ? 'B' : 'A'}`;
  return fc.oneof(
    { arbitrary: fc.constant({ reference: checkout.reference, token: checkout.token }), weight: 3 },
    {
      arbitrary: fc.record({
        reference: fc.constant(checkout.reference),
        token: fc.oneof(
          fc.constantFrom(checkout.mainToken, altered(), checkout.token.toLowerCase()),
          fc.stringMatching(/^[A-Za-z0-9_-]{32}$/),
          hostileString.filter(nonEmpty),
        ),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        reference: fc.oneof(fc.stringMatching(/^CHK-[A-Z0-9]{8}$/), fc.constant(checkout.reference.toLowerCase()), hostileString.filter(nonEmpty)),
        token: fc.constant(checkout.token),
      }),
      weight: 1,
    },
    { arbitrary: paramsArb(route), weight: 1 },
  );
}

const isTheLink = (input: Input) => input.params?.reference === checkout.reference && input.params.token === checkout.token;

/** A checkout route's link check comes first: any other link is a 404 (or 400 when a parameter is too long to be one), never its page. */
function checkLink(expectedForTheLink: (reply: Reply, where: string) => void) {
  return (input: Input, reply: Reply, where: string) => {
    if (isTheLink(input)) expectedForTheLink(reply, where);
    else expect([400, 404], where).toContain(reply.status);
  };
}

/** The Cookie header of the checkout's browser, or none, or a wrong or hostile one. */
const cookieArb = (rightWeight: number): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { arbitrary: fc.constant(checkout.cookie), weight: rightWeight },
    {
      arbitrary: fc.oneof(
        fc.constant(undefined),
        fc.stringMatching(/^[A-Za-z0-9_-]{32}$/).map((v) => `chk_csrf=${v}`),
        hostileString.map((v) => `chk_csrf=${v}`),
        hostileString,
        fc.constant(`${checkout.cookie}; ${checkout.cookie}x`),
        fc.constant(`other=1; ${checkout.cookie.toUpperCase()}`),
      ),
      weight: 2,
    },
  );

/** One fuzz case per route of the table (a test below checks none is missing). */
const cases: Record<string, Case> = {
  [routes.authToken.id]: {
    account: main,
    input: () =>
      fc.record({
        headers: fc.oneof(
          fc.constant(basicAuth),
          hostileString.map((s) => ({ authorization: s })),
          hostileString.map((s) => ({ authorization: `Basic ${s}` })),
          fc.tuple(hostileString, hostileString).map(([p, s]) => ({ authorization: basic(p, s) })),
          fc.constant<Record<string, string>>({}),
        ),
        body: fc.oneof(hostileWholeBody, fc.constant('')),
      }),
    runs: 30,
  },
  [routes.balance.id]: { account: main, ...queryCase([]) },
  [routes.balanceTransactions.id]: { account: main, ...queryCase(['page', 'limit', 'type', 'start', 'end']) },
  [routes.createCustomer.id]: { account: main, ...bodyCase(() => customerBody({ ...fullAddress(), phone: '+55 11 99999-0000' })) },
  [routes.getCustomer.id]: {
    account: main,
    input: () => fc.record({ params: paramsArb(routes.getCustomer, [fc.constant(String(customerId))]), headers: headersArb(auth) }),
    runs: 30,
  },
  [routes.listCustomers.id]: { account: main, ...queryCase(['page', 'limit', 'document', 'name', 'email', 'phone', 'mobilephone']) },
  [routes.listCountries.id]: { account: main, ...queryCase([], 10) },
  [routes.listStates.id]: { account: main, ...queryCase([], 10) },
  [routes.searchCep.id]: {
    account: main,
    input: () => fc.record({ params: paramsArb(routes.searchCep, [fc.constantFrom('01310-100', '01310100', '99999-999')]), headers: headersArb(auth) }),
    runs: 30,
  },
  [routes.createPix.id]: { account: main, ...bodyCase(() => ({ ...validCharge(), email: 'payer@example.com', document: '529.982.247-25', client: 'Payer' })) },
  [routes.createBoleto.id]: { account: main, ...bodyCase(() => ({ ...validCharge(), customer: customerId, instructions: 'Não receber após o vencimento' })) },
  [routes.createCard.id]: { account: main, ...bodyCase(() => cardBody({ invoice_no: 'FUZZ-CARD', creditcard_year: new Date().getUTCFullYear() + 2 })) },
  [routes.listInvoices.id]: { account: main, ...queryCase(['page', 'limit', 'invoice_no', 'email', 'start_date', 'end_date']) },
  [routes.getInvoice.id]: {
    account: main,
    input: () => fc.record({ params: paramsArb(routes.getInvoice, [fc.constant(existing.invoiceId)]), headers: headersArb(auth) }),
    runs: 20,
  },
  [routes.cancelInvoice.id]: {
    account: main,
    input: () =>
      fc.record({
        params: paramsArb(routes.cancelInvoice, [fc.constant(existing.cancelInvoiceId)]),
        body: fc.oneof(hostileWholeBody, fc.constant('')),
        headers: headersArb(auth),
      }),
    runs: 20,
  },
  [routes.getInvoiceByReference.id]: {
    account: main,
    input: () => fc.record({ params: paramsArb(routes.getInvoiceByReference, [fc.constant(existing.pixReference)]), headers: headersArb(auth) }),
    runs: 20,
  },
  [routes.getPixByReference.id]: {
    account: main,
    input: () =>
      fc.record({ params: paramsArb(routes.getPixByReference, [fc.constantFrom(existing.pixReference, existing.boletoReference)]), headers: headersArb(auth) }),
    runs: 20,
  },
  [routes.getPixByTxid.id]: {
    account: main,
    input: () => fc.record({ params: paramsArb(routes.getPixByTxid, [fc.constant(existing.pixTxid)]), headers: headersArb(auth) }),
    runs: 20,
  },
  [routes.createWithdraw.id]: {
    account: main,
    ...bodyCase(() => ({ amount: 1.25, pixkey: 'fuzz@example.com', keytype: 'EMAIL', description: 'fuzz', client: 'Fornecedor' })),
  },
  [routes.getWithdraw.id]: {
    account: main,
    input: () => fc.record({ params: paramsArb(routes.getWithdraw, [fc.constant(existing.withdrawReference)]), headers: headersArb(auth) }),
    runs: 20,
  },
  [routes.listWithdrawals.id]: { account: main, ...queryCase(['page', 'start', 'end', 'status']) },
  [routes.getWebhook.id]: { account: hooks, input: () => fc.record({ query: queryArb([], []), headers: headersArb(hooksAuth) }), runs: 10 },
  [routes.putWebhook.id]: {
    account: hooks,
    input: () =>
      fc.record({
        body: fc.oneof(
          bodyArb({ url: 'https://93.184.215.14/hooks' }),
          fc
            .constantFrom(
              'https://127.0.0.1/x',
              'http://93.184.215.14/x',
              'https://user:pw@93.184.215.14/x',
              'https://93.184.215.14:22/x',
              'https://[::1]/x',
              'https://[::ffff:127.0.0.1]/x',
              'https://0x7f000001/x',
              'https://169.254.169.254/latest/meta-data',
              'https://10.0.0.1/x',
              'https://93.184.215.14:8443/x',
              'javascript:alert(1)',
              'file:///etc/passwd',
              'https://',
              `https://93.184.215.14/${'a'.repeat(300)}`,
            )
            .map((url) => JSON.stringify({ url })),
        ),
        headers: headersArb(hooksAuth),
      }),
    runs: 30,
  },
  [routes.rotateWebhookSecret.id]: {
    account: hooks,
    input: () => fc.record({ body: fc.oneof(hostileWholeBody, bodyArb({ x: 1 })), headers: headersArb(hooksAuth) }),
    runs: 10,
  },
  [routes.testWebhook.id]: {
    account: hooks,
    input: () => fc.record({ body: fc.oneof(hostileWholeBody, bodyArb({ x: 1 })), headers: headersArb(hooksAuth) }),
    runs: 10,
  },
  [routes.webhookDeliveries.id]: { account: hooks, input: () => fc.record({ query: queryArb([], []), headers: headersArb(hooksAuth) }), runs: 10 },
  [routes.listEvents.id]: { account: main, ...queryCase(['page', 'limit', 'type', 'start', 'end', 'delivery_status']) },
  [routes.getEvent.id]: {
    account: hooks,
    input: () => fc.record({ params: paramsArb(routes.getEvent, [fc.constant('evt_AAAAAAAAAAAAAAAAAAAAAAAA')]), headers: headersArb(hooksAuth) }),
    runs: 20,
  },
  [routes.redeliverEvent.id]: {
    account: hooks,
    input: () =>
      fc.record({
        params: paramsArb(routes.redeliverEvent, [fc.constant('evt_AAAAAAAAAAAAAAAAAAAAAAAA')]),
        body: fc.oneof(hostileWholeBody, bodyArb({ x: 1 })),
        headers: headersArb(hooksAuth),
      }),
    runs: 20,
  },
  [routes.providerNotification.id]: {
    account: main,
    input: () => {
      const notification = fc.record(
        {
          id: fc.oneof({ arbitrary: fc.uuid(), weight: 3 }, { arbitrary: hostileValue, weight: 1 }),
          type: fc.oneof(
            { arbitrary: fc.constantFrom('pix.paid', 'boleto.paid', 'charge.canceled', 'charge.refunded', 'pixout.paid', 'pixout.refused'), weight: 3 },
            { arbitrary: hostileValue, weight: 1 },
          ),
          // Shapes of references and txids that name nothing (a real one would make a valid notification, not bad input).
          txid: fc.oneof({ arbitrary: nearIds, weight: 3 }, { arbitrary: hostileValue, weight: 1 }),
          reference: fc.oneof({ arbitrary: nearIds, weight: 3 }, { arbitrary: hostileValue, weight: 1 }),
          end_to_end_id: fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{32}$/), hostileValue),
          occurred_at: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            hostileValue,
          ),
        },
        { requiredKeys: [] },
      );
      const raw = fc.oneof(notification.map(toJsonText), hostileWholeBody);
      return fc
        .record({
          params: fc.record({
            name: fc.oneof({ arbitrary: fc.constant('simulated'), weight: 3 }, { arbitrary: hostileString.filter((s) => s.length > 0), weight: 1 }),
          }),
          body: raw,
          // signed: the real credential over the exact body (the parser runs after the signature); otherwise a hostile header.
          signature: fc.oneof(fc.constant<'signed'>('signed'), hostileString),
        })
        .map(({ params, body, signature }) => ({ params, body, headers: { 'content-type': 'application/json', 'x-signature-mode': signature } }));
    },
    runs: 40,
  },
  [routes.providerPixCallback.id]: {
    account: main,
    // The local stack configures no API Pix PSP: whatever the path names, nothing is looked up and nothing moves.
    input: () => {
      const pix = fc.record(
        {
          endToEndId: fc.oneof(fc.stringMatching(/^E[0-9A-Za-z]{31}$/), hostileValue),
          txid: fc.oneof({ arbitrary: nearIds, weight: 3 }, { arbitrary: hostileValue, weight: 1 }),
          valor: fc.oneof(fc.constantFrom('10.00', '0.01', '-1.00', '1e3'), hostileValue),
          horario: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            hostileValue,
          ),
        },
        { requiredKeys: [] },
      );
      const raw = fc.oneof(
        fc.array(pix, { maxLength: 4 }).map((list) => toJsonText({ pix: list })),
        hostileWholeBody,
      );
      return fc.record({
        params: fc.record({
          name: fc.oneof({ arbitrary: fc.constantFrom('apipix', 'simulated'), weight: 3 }, { arbitrary: hostileString.filter((s) => s.length > 0), weight: 1 }),
          token: fc.oneof(
            fc.stringMatching(/^[A-Za-z0-9_-]{32}$/),
            hostileString.filter((s) => s.length > 0),
          ),
        }),
        body: raw,
        headers: fc.constant({ 'content-type': 'application/json' }),
      });
    },
    check: (_input, reply, where) => expect([400, 404, 413, 422, 429], where).toContain(reply.status),
    runs: 25,
  },
  [routes.boletoPage.id]: {
    account: main,
    input: () =>
      fc.record({
        params: fc.oneof(
          paramsArb(routes.boletoPage),
          fc.record({ reference: fc.constant(existing.boletoReference), token: fc.oneof(hostileString, fc.constant(existing.boletoToken.slice(0, -1) + 'x')) }),
        ),
        query: queryArb([], []),
      }),
    runs: 20,
  },
  [routes.checkoutEntry.id]: {
    account: cardOnly,
    input: () =>
      fc.record({
        body: formArb(entryForm(cardKeys), ['signature', 'submit', 'status', 'total']),
        headers: browserHeadersArb(fc.constant(undefined)),
      }),
    runs: 100,
    check: (_input, reply, where) => {
      if (reply.status === 303) expect(reply.headers.Location, where).toMatch(CHECKOUT_PAGE_PATH);
    },
  },
  [routes.checkoutPage.id]: {
    account: cardOnly,
    input: () => fc.record({ params: linkArb(routes.checkoutPage), query: queryArb([], []), headers: browserHeadersArb(cookieArb(2)) }),
    runs: 30,
    check: checkLink((reply, where) => expect(reply.status, where).toBe(200)),
  },
  [routes.checkoutCard.id]: {
    account: cardOnly,
    input: () =>
      fc
        .record({
          params: fc.oneof(
            { arbitrary: fc.constant({ reference: checkout.reference, token: checkout.token }), weight: 4 },
            { arbitrary: linkArb(routes.checkoutCard), weight: 1 },
          ),
          body: formArb(cardFields(checkout.csrf, { creditcard_number: SIMULATED_CARDS.declined }), ['csrf_token', 'creditcard_expiry', 'submit']),
          // Mostly the page's own cookie, so most forms reach the card's checks and the provider (a decline).
          headers: browserHeadersArb(cookieArb(8)),
        })
        .filter((input) => !mayBeApproved(input.body ?? '')),
    runs: 100,
    // Declined (400), refused by the CSRF check (403) or the fields (422): never paid.
    check: checkLink((reply, where) => expect([400, 403, 422], where).toContain(reply.status)),
  },
  [routes.checkoutStatus.id]: {
    account: cardOnly,
    input: () => fc.record({ params: linkArb(routes.checkoutStatus), query: queryArb([], []) }),
    runs: 15,
    check: checkLink((reply, where) => expect(reply.json, where).toEqual({ status: 'PENDING', redirect_url: null })),
  },
  [routes.getCheckout.id]: {
    account: main,
    input: () =>
      fc.record({ params: paramsArb(routes.getCheckout, [fc.constant(checkout.mainTxRef), fc.constantFrom(...ODD_TX_REFS)]), headers: headersArb(auth) }),
    runs: 30,
    // Its own tx_ref finds the checkout; anything else is the same 404 (or 400 past the parameter's 300 characters).
    check: (input, reply, where) => {
      if (input.params?.tx_ref === checkout.mainTxRef) expect(reply.json, where).toMatchObject({ checkout: { tx_ref: checkout.mainTxRef, status: 'PENDING' } });
      else expect([400, 404], where).toContain(reply.status);
    },
  },
  [routes.openApiDocument.id]: { account: main, input: () => fc.record({ query: queryArb([], []) }), runs: 5 },
  // The merchant panel (issue 27): its pages, its forms with and without their cookie and CSRF token. The signed-in session is kept (sign-out is sent without its token).
  [routes.panelSignInPage.id]: {
    account: main,
    input: () => fc.record({ query: queryArb(['pronto'], ['1']), headers: browserHeadersArb(panelCookieArb(() => panel.preCookie)) }),
    runs: 15,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelSignIn.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.preCsrf, email: panel.email, password: 'not the right password' }, ['code']),
        headers: browserHeadersArb(panelCookieArb(() => panel.preCookie)),
      }),
    runs: 40,
    // Never signed in: the password is never the right one.
    check: (_input, reply, where) => expect([400, 401, 403, 429], where).toContain(reply.status),
  },
  [routes.panelCodePage.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 15,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelCode.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 30,
    // No sign-in awaits a code in this browser (its session is signed in already): refused, never signed in again.
    check: (_input, reply, where) => expect([400, 401, 403, 429], where).toContain(reply.status),
  },
  [routes.panelForgotPage.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.preCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200], where).toContain(reply.status),
  },
  [routes.panelForgotPassword.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.preCsrf, email: 'ninguem@example.com' }, ['code']),
        headers: browserHeadersArb(panelCookieArb(() => panel.preCookie)),
      }),
    runs: 20,
    // The same answer for any e-mail (200), or refused before (the form, the token).
    check: (_input, reply, where) => expect([200, 400, 403], where).toContain(reply.status),
  },
  [routes.panelResetPage.id]: {
    account: main,
    input: () =>
      fc.record({ params: paramsArb(routes.panelResetPage, [fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)]), headers: browserHeadersArb(fc.constant(undefined)) }),
    runs: 20,
    check: (_input, reply, where) => expect([400, 404, 422], where).toContain(reply.status),
  },
  [routes.panelResetPassword.id]: {
    account: main,
    input: () =>
      fc.record({
        params: paramsArb(routes.panelResetPassword, [fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)]),
        body: formArb({ csrf_token: panel.preCsrf, password: 'short', confirmation: 'other', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.preCookie)),
      }),
    runs: 20,
    // Never a password changed: no such link (404), or refused before.
    check: (_input, reply, where) => expect([400, 403, 404, 422], where).toContain(reply.status),
  },
  [routes.panelInvitePage.id]: {
    account: main,
    input: () =>
      fc.record({ params: paramsArb(routes.panelInvitePage, [fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)]), headers: browserHeadersArb(fc.constant(undefined)) }),
    runs: 20,
    check: (_input, reply, where) => expect([400, 404, 422], where).toContain(reply.status),
  },
  [routes.panelAcceptInvite.id]: {
    account: main,
    input: () =>
      fc.record({
        params: fc.oneof({ arbitrary: fc.constant({ token: panel.inviteToken }), weight: 3 }, { arbitrary: paramsArb(routes.panelAcceptInvite), weight: 1 }),
        body: formArb({ csrf_token: panel.preCsrf, enrollment: 'v1.x.y.z', password: 'short', confirmation: 'other', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.preCookie)),
      }),
    runs: 40,
    // Never enrolled: the sealed secret is never one this invite's page gave.
    check: (_input, reply, where) => expect([400, 403, 404, 422], where).toContain(reply.status),
  },
  [routes.panelSignOut.id]: {
    account: main,
    input: () => fc.record({ body: formArb({ csrf_token: 'not-the-token' }, ['code']), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 20,
    check: (_input, reply, where) => expect([303, 400, 403], where).toContain(reply.status),
  },
  [routes.panelCustomers.id]: {
    account: main,
    input: () =>
      fc.record({
        query: queryArb(['page', 'limit', 'name', 'email', 'document', 'phone'], QUERY_NEAR),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    check: (_input, reply, where) => expect([200, 303, 422], where).toContain(reply.status),
  },
  [routes.panelCustomer.id]: {
    account: main,
    // The main account's customer is another account's to the panel's person: never shown.
    input: () =>
      fc.record({
        params: paramsArb(routes.panelCustomer, [fc.constant(String(customerId))]),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 15,
    check: (_input, reply, where) => expect([303, 400, 404, 422], where).toContain(reply.status),
  },
  [routes.panelMethods.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelKeysPage.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelRotateKeys.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    // Never new keys: the code is never the authenticator's (or the token or cookie is not the page's).
    check: (_input, reply, where) => expect([303, 400, 401, 403, 429], where).toContain(reply.status),
  },
  [routes.panelWebhooksPage.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelSetWebhook.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, url: 'https://127.0.0.13:8443/fuzz', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    // Never saved: the code is never the authenticator's (or the token, cookie or URL is refused first).
    check: (_input, reply, where) => expect([303, 400, 401, 403, 422, 429], where).toContain(reply.status),
  },
  [routes.panelRotateWebhookSecret.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 15,
    check: (_input, reply, where) => expect([303, 400, 401, 403, 429], where).toContain(reply.status),
  },
  [routes.panelAuditLog.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelWithdrawals.id]: {
    account: main,
    input: () =>
      fc.record({ query: queryArb(['page', 'start', 'end', 'status'], QUERY_NEAR), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 20,
    check: (_input, reply, where) => expect([200, 303, 422], where).toContain(reply.status),
  },
  [routes.panelRequestWithdrawal.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, amount: '10,00', keytype: 'CPF', pixkey: '52998224725', description: 'fuzz', code: '000000' }, [
          'email',
        ]),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 25,
    // Never a withdrawal: the code is never the authenticator's (or the token, cookie or a field is refused first).
    check: (_input, reply, where) => expect([303, 400, 401, 403, 422, 429], where).toContain(reply.status),
  },
  [routes.panelSecurity.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelChangePassword.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb(
          {
            csrf_token: panel.sessionCsrf,
            current: 'not the password at all',
            password: 'uma frase nova e longa 2026',
            confirmation: 'uma frase nova e longa 2026',
          },
          ['email'],
        ),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 8,
    // Never changed: the current password is never the person's (the failures it counts stay under the limit of 10 only by luck: 429 allowed).
    check: (_input, reply, where) => expect([303, 400, 401, 403, 422, 429], where).toContain(reply.status),
  },
  [routes.panelSignOutEverywhere.id]: {
    account: main,
    // Never the fixture's own session: a wrong or hostile cookie, or none (its own would end the other panel cases' session).
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => `${SESSION_COOKIE}=${'A'.repeat(43)}`)),
      }),
    runs: 10,
    check: (_input, reply, where) => expect([303, 400, 403], where).toContain(reply.status),
  },
  [routes.panelStartNewAuthenticator.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 10,
    // Never a new secret: the code is never the authenticator's.
    check: (_input, reply, where) => expect([303, 400, 401, 403, 429], where).toContain(reply.status),
  },
  [routes.panelConfirmNewAuthenticator.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, enrollment: 'v1.not.a.sealed.secret', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 10,
    // Never replaced: the enrollment is never one this session sealed.
    check: (_input, reply, where) => expect([303, 400, 403, 422], where).toContain(reply.status),
  },
  [routes.panelTestWebhook.id]: {
    account: main,
    input: () =>
      fc.record({ body: formArb({ csrf_token: panel.sessionCsrf }, ['email']), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    // The fixture's account has no webhook URL: never an event (409), or refused before (the token, the cookie).
    check: (_input, reply, where) => expect([303, 400, 403, 409], where).toContain(reply.status),
  },
  [routes.panelCheckoutPage.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelSetCheckoutSigning.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, require: 'on', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 10,
    // Never saved: the code is never the authenticator's (401), or the value is not on/off (422), or refused before.
    check: (_input, reply, where) => expect([303, 400, 401, 403, 422, 429], where).toContain(reply.status),
  },
  [routes.panelRotateCheckoutSecret.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 10,
    check: (_input, reply, where) => expect([303, 400, 401, 403, 429], where).toContain(reply.status),
  },
  [routes.panelRedeliverWebhook.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, event: 'evt_not_an_event' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 10,
    // No such event of the fixture's account (404), or refused before (the token, the cookie, the form); never a redelivery.
    check: (_input, reply, where) => expect([303, 400, 403, 404], where).toContain(reply.status),
  },
  [routes.panelTeam.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 10,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
  [routes.panelInvitePerson.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, email: `fuzz-team${Date.now()}@example.com`, role: 'viewer', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    // Never an invite: the code is never the authenticator's (or the token, cookie, e-mail or role is refused first).
    check: (_input, reply, where) => expect([303, 400, 401, 403, 409, 422, 429], where).toContain(reply.status),
  },
  [routes.panelChangeRole.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, person: 'pp_unknown', role: 'viewer', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 15,
    check: (_input, reply, where) => expect([303, 400, 401, 403, 404, 422, 429], where).toContain(reply.status),
  },
  [routes.panelRemovePerson.id]: {
    account: main,
    input: () =>
      fc.record({
        body: formArb({ csrf_token: panel.sessionCsrf, person: 'pp_unknown', code: '000000' }, ['email']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 15,
    check: (_input, reply, where) => expect([303, 400, 401, 403, 404, 429], where).toContain(reply.status),
  },
  [routes.panelInvoices.id]: {
    account: main,
    input: () =>
      fc.record({
        query: queryArb(['page', 'limit', 'invoice_no', 'email', 'start_date', 'end_date'], QUERY_NEAR),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    check: (_input, reply, where) => expect([200, 303, 422], where).toContain(reply.status),
  },
  [routes.panelInvoice.id]: {
    account: main,
    // The main account's invoice is another account's to the panel's person: never shown.
    input: () =>
      fc.record({
        params: paramsArb(routes.panelInvoice, [fc.constant(existing.pixReference)]),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    check: (_input, reply, where) => expect([303, 400, 404, 422], where).toContain(reply.status),
  },
  [routes.panelStatement.id]: {
    account: main,
    input: () =>
      fc.record({
        query: queryArb(['page', 'limit', 'type', 'start', 'end'], [...QUERY_NEAR, 'payment', 'adjustment']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    check: (_input, reply, where) => expect([200, 303, 422], where).toContain(reply.status),
  },
  [routes.panelStatementCsv.id]: {
    account: main,
    input: () =>
      fc.record({
        query: queryArb(['type', 'start', 'end'], [...QUERY_NEAR, 'payment', 'adjustment']),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 15,
    check: (_input, reply, where) => expect([200, 303, 422], where).toContain(reply.status),
  },
  [routes.panelWithdrawal.id]: {
    account: main,
    // The main account's withdrawal is another account's to the panel's person: never shown.
    input: () =>
      fc.record({
        params: paramsArb(routes.panelWithdrawal, [fc.constant(existing.withdrawReference)]),
        headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)),
      }),
    runs: 20,
    check: (_input, reply, where) => expect([303, 400, 404, 422], where).toContain(reply.status),
  },
  [routes.panelOverview.id]: {
    account: main,
    input: () => fc.record({ query: queryArb([], []), headers: browserHeadersArb(panelCookieArb(() => panel.sessionCookie)) }),
    runs: 15,
    check: (_input, reply, where) => expect([200, 303], where).toContain(reply.status),
  },
};

/** Turns the provider case's signature mode into the header the provider would send (the secret is read once). */
async function withSignature(route: AnyRoute, input: Input): Promise<Input> {
  if (route.id !== routes.providerNotification.id || !input.headers) return input;
  const { 'x-signature-mode': mode, ...headers } = input.headers;
  const value = mode === 'signed' ? signatureHeader(input.body ?? '', await providerSecret(), Math.floor(Date.now() / 1000)) : (mode ?? '');
  return { ...input, headers: { ...headers, [SIMULATED_SIGNATURE_HEADER.toLowerCase()]: value } };
}

async function call(route: AnyRoute, input: Input): Promise<Reply> {
  return send(route, await withSignature(route, input));
}

beforeAll(async () => {
  useLocalStackEnvironment();
  // This file's process only: a few hundred calls of one account within a minute.
  process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = '100000';
  const [mainKeys, hookKeys, cardOnlyKeys] = await Promise.all([newAccount(undefined, 15), newAccount(), newAccount(['card'])]);
  accountId = mainKeys.account_id;
  hooksAccountId = hookKeys.account_id;
  cardKeys = cardOnlyKeys;
  cardAccountId = cardOnlyKeys.account_id;
  basicAuth = { authorization: basic(mainKeys.public_key, mainKeys.secret_key) };
  [auth, hooksAuth] = (await Promise.all([tokenFor(mainKeys), tokenFor(hookKeys)])).map(bearer) as [Record<string, string>, Record<string, string>];
  await creditAccount(accountStore(), accountId, 1_000_000);
  const customer = await call(routes.createCustomer, { body: JSON.stringify(customerBody(fullAddress())), headers: auth });
  customerId = (customer.json as { customer: { id: number } }).customer.id;
  const pix = await call(routes.createPix, { body: JSON.stringify(validCharge()), headers: auth });
  const boleto = await call(routes.createBoleto, { body: JSON.stringify({ ...validCharge(), customer: customerId }), headers: auth });
  const withdraw = await call(routes.createWithdraw, {
    body: JSON.stringify({ amount: 1, pixkey: 'fuzz@example.com', keytype: 'EMAIL' }),
    headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` },
  });
  const pixInvoice = (pix.json as { invoice: { reference: string; txid: string } }).invoice;
  const boletoInvoice = (boleto.json as { invoice: { reference: string; boleto: string } }).invoice;
  const byRef = await call(routes.getInvoiceByReference, { params: { ref_id: pixInvoice.reference }, headers: auth });
  const toCancel = await call(routes.createPix, { body: JSON.stringify(validCharge()), headers: auth });
  const toCancelRef = await call(routes.getInvoiceByReference, {
    params: { ref_id: (toCancel.json as { invoice: { reference: string } }).invoice.reference },
    headers: auth,
  });
  existing = {
    cancelInvoiceId: String((toCancelRef.json as { invoice: { id: number } }).invoice.id),
    pixReference: pixInvoice.reference,
    pixTxid: pixInvoice.txid,
    boletoReference: boletoInvoice.reference,
    boletoToken: boletoInvoice.boleto.split('/').pop() ?? '',
    withdrawReference: (withdraw.json as { withdraw: { reference: string } }).withdraw.reference,
    invoiceId: String((byRef.json as { invoice: { id: number } }).invoice.id),
  };
  // A checkout of each account (the main one's with its Pix charge), and the card-only one's page as a browser opens it.
  const form = { 'content-type': FORM_TYPE };
  const mainForm = entryForm(mainKeys);
  const [mainEntry, cardEntry] = await Promise.all([
    call(routes.checkoutEntry, { body: formText(Object.entries(mainForm)), headers: form }),
    call(routes.checkoutEntry, { body: formText(Object.entries(entryForm(cardOnlyKeys))), headers: form }),
  ]);
  const [, , mainToken = ''] = CHECKOUT_PAGE_PATH.exec(mainEntry.headers.Location ?? '') ?? [];
  const [, reference = '', token = ''] = CHECKOUT_PAGE_PATH.exec(cardEntry.headers.Location ?? '') ?? [];
  const page = await call(routes.checkoutPage, { params: { reference, token } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  checkout = { reference, token, cookie: page.cookies[0]?.split(';')[0] ?? '', csrf, mainTxRef: mainForm.tx_ref ?? '', mainToken };
  if (!mainToken || !token || !checkout.cookie.startsWith('chk_csrf=') || !csrf) {
    throw new Error(`checkout fixture: ${mainEntry.status} ${cardEntry.status} ${page.status} ${page.body.slice(0, 300)}`);
  }
  // The merchant panel: a person signed in (their session and its forms' token), a browser before sign-in, an open invite.
  const person = await enrolledPerson('owner');
  const signedIn = new Jar();
  await signIn(signedIn, person);
  const overview = await panelGet(signedIn, '/panel');
  const before = new Jar();
  const signInForm = await panelGet(before, '/panel/entrar');
  const invite = (await admin('panel', 'invite', '--account', person.accountId, '--email', `fuzz${Date.now()}@example.com`, '--role', 'viewer')).json as {
    invite_url: string;
  };
  panel = {
    email: person.email,
    preCookie: `${PRE_SESSION_COOKIE}=${before.get(PRE_SESSION_COOKIE) ?? ''}`,
    preCsrf: hidden(signInForm.text, 'csrf_token'),
    sessionCookie: `${SESSION_COOKIE}=${signedIn.get(SESSION_COOKIE) ?? ''}`,
    sessionCsrf: hidden(overview.text, 'csrf_token'),
    inviteToken: new URL(invite.invite_url).pathname.split('/').pop() ?? '',
  };
  if (overview.status !== 200 || !panel.inviteToken) throw new Error(`panel fixture: ${overview.status}`);
}, 90_000);

describe('bad input on every route (fast-check, in-process handlers, the real local table)', () => {
  it('has a fuzz case for every route of the table', () => {
    expect(Object.keys(cases).sort()).toEqual(routeList.map((r) => r.id).sort());
  });

  for (const route of routeList) {
    it(`${route.method} ${route.path}: never a 500, errors in the spec's shapes, nothing written but what the accepted calls explain`, async () => {
      const fuzz = cases[route.id];
      if (!fuzz) throw new Error(`no fuzz case for ${route.id}`);
      const owner = fuzz.account();
      const before = await snapshot(owner);
      const accepted: Reply[] = [];
      await fc.assert(
        fc.asyncProperty(fuzz.input(), async (input) => {
          const reply = await call(route, input);
          const context = JSON.stringify(input).slice(0, 400);
          expectSpecShape(route, reply, context);
          fuzz.check?.(input, reply, `${route.id} ${context} → ${reply.status} ${reply.body.slice(0, 300)}`);
          // A replay (a hostile key can be a valid one, e.g. INV-AAAAAA, and come twice) writes nothing again; a browser's form is accepted with a 303.
          const success = route.browser ? reply.status >= 200 && reply.status < 400 : reply.status >= 200 && reply.status < 300;
          if (success && reply.headers['Idempotent-Replayed'] !== 'true') accepted.push(reply);
        }),
        { numRuns: fuzz.runs },
      );
      const after = await snapshot(owner);
      expect(after).toEqual(explained(route, before, after, accepted));
    });
  }
});

describe('the oddest strings in every slot of every route', () => {
  /**
   * Values past DynamoDB's 2,048-byte key limit, multi-byte, with NUL, lone surrogates and right-to-left marks;
   * 'é' × 1,021 is 2,042 bytes, the size of the public key that once answered 500 (issue 17).
   */
  const STRANGE = '\u0000\ud800\u202e%2F..%00';
  const ODD = ['a'.repeat(3_000), STRANGE, `${STRANGE}${'é'.repeat(1_500)}`, 'é'.repeat(1_021)];
  const BODY_ODD = [STRANGE];

  it('path parameters, query values, Authorization and Idempotency-Key: never a 500, errors in the spec shapes, nothing written', async () => {
    const before = await snapshot(accountId);
    for (const route of routeList) {
      const names = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] ?? '');
      const own = route.auth === 'basic' ? basicAuth : route.id === routes.putWebhook.id ? hooksAuth : auth;
      for (const odd of ODD) {
        const params = Object.fromEntries(names.map((n) => [n, odd]));
        const queryNames = ['page', 'limit', 'name', 'email', 'document', 'start_date', 'end_date', 'start', 'end', 'status', 'invoice_no', odd];
        const attempts: Input[] = [
          { params, headers: own },
          { params, query: queryNames.map((n) => [n, odd] as const), headers: { ...own, 'idempotency-key': odd } },
          // Credentials in every odd form (routes without authentication ignore the header).
          ...(route.auth === 'none'
            ? []
            : [odd, `Bearer ${odd}`, `Bearer pgt_${odd}.${odd}`, basic(odd, odd), basic(`PUB-${odd}`, 'x'), basic(`PUB-${odd}`, `SEC-${'a'.repeat(48)}`)].map(
                (authorization) => ({ params, headers: { authorization } }),
              )),
        ];
        for (const input of attempts) expectSpecShape(route, await call(route, input), JSON.stringify(input).slice(0, 200));
      }
    }
    expect(await snapshot(accountId)).toEqual(before);
    // Every route × every odd value, one call at a time: 19 s idle, past 30 s on a loaded machine.
  }, 120_000);

  it('every body field of every route set to each odd string: never a 500, and only valid bodies write', async () => {
    const bodies: [AnyRoute, Record<string, unknown>][] = [
      [routes.createCustomer, customerBody(fullAddress())],
      [routes.createPix, { ...validCharge(), email: 'payer@example.com', document: '529.982.247-25', client: 'Payer' }],
      [routes.createBoleto, { ...validCharge(), customer: customerId, instructions: 'x' }],
      [routes.createCard, cardBody()],
      [
        routes.createWithdraw,
        { amount: 1, pixkey: 'fuzz@example.com', keytype: 'EMAIL', description: 'x', client: 'x', email: 'a@example.com', document: '529.982.247-25' },
      ],
    ];
    for (const [route, valid] of bodies) {
      const before = await snapshot(accountId);
      const accepted: Reply[] = [];
      for (const field of Object.keys(valid)) {
        for (const odd of BODY_ODD) {
          const input = { body: JSON.stringify({ ...valid, [field]: odd }), headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` } };
          const reply = await call(route, input);
          expectSpecShape(route, reply, `${field}=${odd.slice(0, 20)}`);
          if (reply.status === 200) accepted.push(reply);
        }
      }
      const after = await snapshot(accountId);
      expect(after, route.id).toEqual(explained(route, before, after, accepted));
    }
  });
});

describe('text fields: control, bidi-override, lone-surrogate and invisible-only values answer 422 on that field, nothing written (issue 17)', () => {
  /** Refused in every text field. */
  const EVERYWHERE = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0080', '\u0085', '\u009b', '\u009f', '\u202a', '\u202e', '\u2066', '\u2069'];
  /** Refused in single-line fields only. */
  const LINE_BREAKS = ['\n', '\r', '\r\n', '\t', '\u2028', '\u2029'];
  /** JSON carries lone surrogates (escaped); a form body cannot (UTF-8 makes them U+FFFD). */
  const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];
  const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u200e', '\u200f', '\u3164', '\u00ad'];

  /**
   * A valid value with one forbidden character put inside it (at either end, white space and line breaks are
   * trimmed away, as spaces are), or a value made only of invisible characters.
   */
  function spoiled(valid: string, multiLine: boolean, surrogates: boolean): fc.Arbitrary<string> {
    const forbidden = [...EVERYWHERE, ...(multiLine ? [] : LINE_BREAKS), ...(surrogates ? SURROGATES : [])];
    const inserted = fc
      .tuple(fc.constantFrom(...forbidden), fc.integer({ min: 1, max: Math.max(1, valid.length - 1) }))
      .map(([bad, at]) => `${valid.slice(0, at)}${bad}${valid.slice(at)}`);
    const invisibleOnly = fc.array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 4 }).map((chars) => chars.join(''));
    return fc.oneof({ arbitrary: inserted, weight: 4 }, { arbitrary: invisibleOnly, weight: 1 });
  }

  /** The text fields of each JSON route (multi-line ones marked) and a valid body for it. */
  const jsonRoutes: [AnyRoute, () => Record<string, unknown>, string[], string[]][] = [
    [routes.createCustomer, () => customerBody(fullAddress()), ['name', 'city', 'district', 'street', 'number'], []],
    [routes.createPix, () => ({ ...validCharge(), client: 'Payer' }), ['item_name', 'invoice_no', 'client'], ['notes']],
    [
      routes.createBoleto,
      () => ({ ...validCharge(), customer: customerId, instructions: 'Não receber após o vencimento' }),
      ['item_name', 'invoice_no'],
      ['notes', 'instructions'],
    ],
    [routes.createCard, () => ({ ...cardBody(), notes: 'fuzz' }), ['item_name', 'invoice_no', 'creditcard_holder', 'creditcard_brand'], ['notes']],
    [
      routes.createWithdraw,
      () => ({ amount: 1, pixkey: 'fuzz@example.com', keytype: 'EMAIL', description: 'fuzz', client: 'Fornecedor' }),
      ['description', 'client'],
      [],
    ],
  ];

  for (const [route, valid, singleLine, multiLine] of jsonRoutes) {
    it(`${route.method} ${route.path}: ${[...singleLine, ...multiLine].join(', ')}`, async () => {
      const body = valid();
      const fieldArb = fc.oneof(
        ...singleLine.map((field) => spoiled(String(body[field]), false, true).map((value) => [field, value] as const)),
        ...multiLine.map((field) => spoiled(String(body[field]), true, true).map((value) => [field, value] as const)),
      );
      const before = await snapshot(accountId);
      await fc.assert(
        fc.asyncProperty(fieldArb, async ([field, value]) => {
          const reply = await call(route, { body: JSON.stringify({ ...body, [field]: value }), headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` } });
          const where = `${route.id} ${field}=${JSON.stringify(value)} → ${reply.status} ${reply.body.slice(0, 300)}`;
          expect(reply.status, where).toBe(422);
          expect(Object.keys((reply.json as { error: Record<string, string[]> }).error), where).toEqual([field]);
        }),
        { numRuns: 30 },
      );
      expect(await snapshot(accountId)).toEqual(before);
    });
  }

  it(`${routes.checkoutEntry.method} ${routes.checkoutEntry.path}: title, first_name, last_name, product_reference, product_name (a 422 page listing the field)`, async () => {
    const form = entryForm(cardKeys);
    const fields = ['title', 'first_name', 'last_name', 'product_reference', 'product_name'];
    const fieldArb = fc.oneof(...fields.map((field) => spoiled(form[field] ?? '', false, false).map((value) => [field, value] as const)));
    const before = await snapshot(cardAccountId);
    await fc.assert(
      fc.asyncProperty(fieldArb, async ([field, value]) => {
        const reply = await call(routes.checkoutEntry, { body: formText(Object.entries({ ...form, [field]: value })), headers: { 'content-type': FORM_TYPE } });
        const where = `${field}=${JSON.stringify(value)} → ${reply.status} ${reply.body.slice(0, 300)}`;
        expect(reply.status, where).toBe(422);
        expect(
          [...reply.body.matchAll(/<li data-field="([^"]+)">/g)].map((m) => m[1]),
          where,
        ).toEqual([field]);
      }),
      { numRuns: 40 },
    );
    expect(await snapshot(cardAccountId)).toEqual(before);
  });
});

describe('body rules: size, duplicate keys, nesting', () => {
  it('a body over 1 MB answers 413 payload_too_large on every route, before anything reads it; 1 MB exactly is read', async () => {
    const over = JSON.stringify({ ...validCharge(), notes: 'x'.repeat(1024 * 1024) });
    const before = await snapshot(accountId);
    for (const route of routeList) {
      const headers = route.auth === 'basic' ? basicAuth : { ...auth, 'idempotency-key': `fz-${randomUUID()}` };
      const reply = await call(route, {
        params: {
          id: '1',
          invoice_id: '1',
          ref_id: 'INV-AAAAAA',
          ref: 'INV-AAAAAA',
          txid: 'x',
          cep: '01310100',
          name: 'simulated',
          reference: 'INV-AAAAAA',
          token: 'x',
          tx_ref: 'x',
        },
        body: over,
        headers,
      });
      expect(reply.status, route.id).toBe(413);
      // A browser gets the same refusal as a page (its status, its CSP), not JSON.
      if (route.browser) expectSpecShape(route, reply, 'over 1 MB');
      else expect(reply.json, route.id).toEqual({ error: expect.stringContaining('1 MB'), code: 'payload_too_large' });
    }
    // The hosted checkout's real links: still refused before the checkout is read.
    for (const route of [routes.checkoutPage, routes.checkoutCard, routes.checkoutStatus]) {
      const reply = await call(route, { params: { reference: checkout.reference, token: checkout.token }, body: over, headers: { cookie: checkout.cookie } });
      expect(reply.status, route.id).toBe(413);
    }
    // Binary (base64-encoded by the gateway) bodies are measured decoded: 1 MB + 1 byte of them is too large, 1 MB is not.
    const binary = await call(routes.createPix, { body: 'x'.repeat(1024 * 1024 + 1), headers: { ...auth, 'content-type': 'application/octet-stream' } });
    expect(binary.status).toBe(413);
    const exact = JSON.stringify({ ...validCharge(), pad: '' });
    const padded = exact.replace('"pad":""', `"pad":"${'x'.repeat(1024 * 1024 - Buffer.byteLength(exact))}"`);
    expect(Buffer.byteLength(padded)).toBe(1024 * 1024);
    const fits = await call(routes.createPix, { body: padded, headers: { ...auth, 'content-type': 'application/octet-stream' } });
    expect(fits.status).toBe(200);
    const after = await snapshot(accountId);
    expect(after.invoices).toHaveLength(before.invoices.length + 1);
    expect(after.balanceCents).toBe(before.balanceCents);
  });

  it('through the local gateway: 2 MB and 7 MB are refused 413 by the edge function (declared length), in the same shape', async () => {
    // A fresh account: the stack process counts its calls against its own 60 a minute.
    const fresh = await newAccount();
    const own = bearer(await tokenFor(fresh));
    const before = await snapshot(fresh.account_id);
    const two = await httpCall('POST', '/api/pix/create', { headers: own, body: JSON.stringify({ ...validCharge(), notes: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(two.status).toBe(413);
    expect(two.json).toEqual({ error: expect.stringContaining('1 MB'), code: 'payload_too_large' });
    const seven = await httpCall('POST', '/api/pix/create', { headers: own, body: 'x'.repeat(7 * 1024 * 1024) });
    expect(seven.status).toBe(413);
    expect(seven.json).toEqual({ error: expect.any(String), code: 'payload_too_large' });
    expect(await snapshot(fresh.account_id)).toEqual(before);
  });

  it('a key repeated in one object answers 400 duplicate_key (the rule of docs/decisions.md), at any depth and however escaped; nothing is written', async () => {
    const before = await snapshot(accountId);
    const valid = validCharge();
    const bodies = [
      toJsonText(new DuplicateKeys([...Object.entries(valid), ['amount', 1]])),
      toJsonText(new DuplicateKeys([['amount', 1000], ...Object.entries(valid)])),
      toJsonText(new DuplicateKeys([...Object.entries(valid), ['tax', 5]])),
      `${JSON.stringify(valid).slice(0, -1)},"\\u0061mount":5}`,
      JSON.stringify({ ...valid, extra: { a: 1 } }).replace('{"a":1}', '{"a":1,"a":2}'),
      JSON.stringify({ ...valid, extra: [{ b: 1 }] }).replace('{"b":1}', '{"b":1,"b":1}'),
    ];
    for (const body of bodies) {
      const reply = await call(routes.createPix, { body, headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` } });
      expect(reply.status, body).toBe(400);
      expect(reply.json, body).toMatchObject({ code: 'duplicate_key', error: expect.stringContaining('appears twice') });
    }
    // The same key in two different objects is no repetition.
    const sibling = await call(routes.createPix, { body: JSON.stringify({ ...valid, extra: [{ a: 1 }, { a: 2 }], more: { a: 3 } }), headers: auth });
    expect(sibling.status).toBe(200);
    const after = await snapshot(accountId);
    expect(after.invoices).toHaveLength(before.invoices.length + 1);
    for (const route of routeList.filter((r) => r.request.body)) {
      // A route that requires an Idempotency-Key names its absence first (the key is checked before the body: issue 30).
      const key: Record<string, string> = route.idempotency === 'required' ? { 'idempotency-key': `fz-${randomUUID()}` } : {};
      const reply = await call(route, { body: '{"a":1,"a":1}', headers: { ...(route.id === routes.putWebhook.id ? hooksAuth : auth), ...key } });
      expect(reply.status, route.id).toBe(400);
      expect(reply.json, route.id).toMatchObject({ code: 'duplicate_key' });
    }
  });

  it('nesting deeper than 32 levels answers 400 invalid_body, also with an Idempotency-Key (whose fingerprint walks the body)', async () => {
    const before = await snapshot(accountId);
    for (const depth of [33, 1_000, 100_000]) {
      const body = toJsonText({ ...validCharge(), extra: deepArray(depth) });
      const reply = await call(routes.createPix, { body, headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` } });
      expect(reply.status, String(depth)).toBe(400);
      expect(reply.json).toEqual({ error: expect.stringContaining('deeper than 32'), code: 'invalid_body' });
    }
    const fine = await call(routes.createPix, {
      body: toJsonText({ ...validCharge(), extra: deepArray(31) }),
      headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` },
    });
    expect(fine.status).toBe(200);
    expect((await snapshot(accountId)).invoices).toHaveLength(before.invoices.length + 1);
  });
});

describe('numbers at the edges and percents with 4 decimals (spec 1, 2.1)', () => {
  const pix = (fields: Record<string, unknown>) =>
    call(routes.createPix, { body: toJsonText({ ...validCharge(), ...fields }), headers: { ...auth, 'idempotency-key': `fz-${randomUUID()}` } });

  it('refuses 1e400, 0.1 + 0.2 and 999999999.999 with 422 naming the field; -0 is a percent of zero but never an amount', async () => {
    const before = await snapshot(accountId);
    const refused: [Record<string, unknown>, string][] = [
      [{ amount: new RawJson('1e400') }, 'amount'],
      [{ amount: new RawJson('-1e400') }, 'amount'],
      [{ amount: new RawJson('1e-400') }, 'amount'],
      [{ amount: new RawJson('-0') }, 'amount'],
      [{ amount: 0.1 + 0.2 }, 'amount'],
      [{ amount: 999_999_999.999 }, 'amount'],
      [{ quantity: new RawJson('1e400') }, 'quantity'],
      [{ quantity: 999_999_999.999 }, 'quantity'],
      [{ tax: new RawJson('1e400') }, 'tax'],
      [{ tax: 0.1 + 0.2 }, 'tax'],
      [{ discount: 999_999_999.999 }, 'discount'],
    ];
    for (const [fields, field] of refused) {
      const reply = await pix(fields);
      expect(reply.status, toJsonText(fields)).toBe(422);
      expect(Object.keys((reply.json as { error: Record<string, string[]> }).error), toJsonText(fields)).toEqual([field]);
    }
    expect(await snapshot(accountId)).toEqual(before);
    // -0 and an underflow to -0 (JSON.parse reads -1e-400 as -0) are a percent of zero.
    const zero = await pix({ tax: new RawJson('-0'), discount: new RawJson('-1e-400'), amount: 10, quantity: 1 });
    expect(zero.status).toBe(200);
    expect((zero.json as { invoice: { total: string } }).invoice.total).toBe('10.00');
  });

  it('takes tax and discount with up to 4 decimals and computes the total exactly; 5 decimals → 422 on the field', async () => {
    // 200 × (1 + 0.0025 / 100) = 200.005 exactly: half a cent, up → 200.01 (floating point and toFixed(2) answer 200.00)
    const half = await pix({ amount: 200, quantity: 1, tax: 0.0025, discount: 0 });
    expect(half.status).toBe(200);
    expect((half.json as { invoice: { total: string } }).invoice.total).toBe('200.01');
    // 33.33 × 3 = 99.99; × (1 + 3.3335% − 1.2345%) = 99.99 × 1.0209900 = 102.0888… → 102.09
    const four = await pix({ amount: 33.33, quantity: 3, tax: 3.3335, discount: 1.2345 });
    expect(four.status).toBe(200);
    expect((four.json as { invoice: { total: string } }).invoice.total).toBe('102.09');
    const reference = (four.json as { invoice: { reference: string } }).invoice.reference;
    const stored = await call(routes.getInvoiceByReference, { params: { ref_id: reference }, headers: auth });
    expect(stored.json).toMatchObject({ invoice: { tax: 3.3335, discount: 1.2345, total: '102.09' } });
    for (const field of ['tax', 'discount']) {
      const reply = await pix({ [field]: 3.33351 });
      expect(reply.status).toBe(422);
      expect(reply.json).toEqual({ error: { [field]: ['Must have at most 4 decimals'] } });
    }
    const amount = await pix({ amount: 10.001 });
    expect(amount.json).toEqual({ error: { amount: ['Must have at most 2 decimals'] } });
  });
});

describe('the item counts the properties rely on', () => {
  it('snapshot sees a write: one accepted customer adds one customer item', async () => {
    const before = await snapshot(accountId);
    const reply = await call(routes.createCustomer, { body: JSON.stringify(customerBody()), headers: auth });
    expect(reply.status).toBe(200);
    const after = await snapshot(accountId);
    expect(after.customers).toBe(before.customers + 1);
    expect(explained(routes.createCustomer, before, after, [reply])).toEqual(after);
    // A customer moves no money: the shards' sum is unchanged.
    expect(await storedBalanceCents(accountId)).toBe(before.balanceCents);
    expect(after.balanceCents).toBe(before.balanceCents);
  });
});
