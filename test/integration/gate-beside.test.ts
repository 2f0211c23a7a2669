import type { InitializeMiddleware } from '@smithy/types';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys, setAccountDisabled } from '../../shared/adapters/dynamo/accounts';
import { routes } from '../../shared/http/routes';
import { getRuntime } from '../../shared/wiring/runtime';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardBody, common, createCharge } from '../support/charges';
import { type FaultInjector, installFaultInjector } from '../support/fault-injection';
import { invokeRoute } from '../support/invoke-route';
import { notification, providerSecret } from '../support/provider';
import { SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { customerBody } from '../support/customers';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys as itemKeys } from '../../shared/adapters/dynamo/keys';

/**
 * Issue 26: a read route's read goes out beside the gate (the account's count), not after it. The
 * answer waits for both; a refusal of the gate (401, 403, 429) is the answer and the read is thrown away.
 */
let injector: FaultInjector;
const SEEN_READ = 'gate-beside-seen-read';
let onRead: ((command: string, pk: string) => void) | undefined;

beforeAll(() => {
  useLocalStackEnvironment();
  const db = getRuntime().db;
  injector = installFaultInjector(db);
  const seen: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => (args) => {
    const key = (args.input as { Key?: { PK?: unknown } }).Key;
    if (['GetItemCommand', 'BatchGetItemCommand', 'PutItemCommand'].includes(String(context.commandName)))
      onRead?.(String(context.commandName), typeof key?.PK === 'string' ? key.PK : '');
    return next(args);
  };
  db.middlewareStack.add(seen, { step: 'initialize', name: SEEN_READ, priority: 'low' });
});

afterAll(() => {
  injector.remove();
  getRuntime().db.middlewareStack.remove(SEEN_READ);
});

/**
 * Runs `call` with the gate's counting update held: it takes effect, but its answer reaches the code only
 * once `wentOut` has seen the work it waits for sent (its command and partition key). In the old order
 * (the work after the gate) that never happens while the answer is held, and the hold ends after 20 s.
 */
async function withGateHeld<T>(wentOut: (command: string, pk: string) => boolean, call: () => Promise<T>) {
  let releasedBy: 'the work' | 'the timeout' | undefined;
  const release = new Promise<void>((resolve) => {
    onRead = (command, pk) => {
      if (!wentOut(command, pk)) return;
      releasedBy ??= 'the work';
      resolve();
    };
    setTimeout(() => {
      releasedBy ??= 'the timeout';
      resolve();
    }, 20_000);
  });
  const run = await injector.run({ at: { command: 'UpdateItemCommand', nth: 0 }, holdUntil: release }, call);
  onRead = undefined;
  return { run, releasedBy };
}

async function accountWithInvoice() {
  const keys = await newAccount();
  const auth = bearer(await tokenFor(keys));
  const created = await createCharge('pix', auth, common());
  return { keys, auth, reference: String(created.invoice.reference) };
}

describe('a read beside the gate', () => {
  it("sends its read while the gate's count is still unanswered, and answers once both are in", async () => {
    const { auth, reference } = await accountWithInvoice();
    const { run, releasedBy } = await withGateHeld(
      (command) => command === 'GetItemCommand',
      () => invokeRoute(routes.getInvoiceByReference, { params: { ref_id: reference }, headers: auth }),
    );
    expect(releasedBy).toBe('the work');
    expect(run.outcome.kind).toBe('returned');
    const answer = run.outcome.kind === 'returned' ? run.outcome.value : undefined;
    expect(answer?.status).toBe(200);
    expect((answer?.json as { invoice: { reference: string } }).invoice.reference).toBe(reference);
    // The count and the read, nothing else.
    expect(run.calls.map((c) => c.command).sort()).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    expect(answer?.headers['ratelimit-remaining'] ?? answer?.headers['RateLimit-Remaining']).toBeDefined();
  }, 60_000);

  it('answers the refusal of the gate, never what the read found: revoked keys 401, a disabled account 403, past the limit 429', async () => {
    const revoked = await accountWithInvoice();
    await rotateKeys(accountStore(), revoked.keys.account_id);
    const old = await invokeRoute(routes.getInvoiceByReference, { params: { ref_id: revoked.reference }, headers: revoked.auth });
    expect(old.status).toBe(401);
    expect(old.body).not.toContain(revoked.reference);

    const disabled = await accountWithInvoice();
    await setAccountDisabled(accountStore(), disabled.keys.account_id, true);
    const off = await invokeRoute(routes.getInvoiceByReference, { params: { ref_id: disabled.reference }, headers: disabled.auth });
    expect(off.status).toBe(403);
    expect(off.body).not.toContain(disabled.reference);

    // An unknown reference is a 404 only for a call the gate lets through: revoked, it is the 401.
    const unknown = await invokeRoute(routes.getInvoiceByReference, { params: { ref_id: 'INV-ZZZZZZ' }, headers: revoked.auth });
    expect(unknown.status).toBe(401);

    const busy = await accountWithInvoice();
    const limit = getRuntime().config.rateLimits.account;
    const answers = [];
    for (let i = 0; i <= limit; i += 1)
      answers.push(await invokeRoute(routes.getInvoiceByReference, { params: { ref_id: busy.reference }, headers: busy.auth }));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.body).not.toContain(busy.reference);
      expect(answer.headers['retry-after'] ?? answer.headers['Retry-After']).toBeDefined();
    }
    expect(answers.filter((a) => a.status === 200).length + refused.length).toBe(limit + 1);
  }, 120_000);
});

async function idempotencyRecord(accountId: string, key: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: itemKeys.idempotency(accountId, key), ConsistentRead: true }))).Item;
}

async function customersOf(accountId: string): Promise<number> {
  const store = accountStore();
  const out = await store.db.send(
    new QueryCommand({
      TableName: store.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': itemKeys.account(accountId).PK, ':sk': 'CUSTOMER#' },
      ConsistentRead: true,
    }),
  );
  return out.Count ?? 0;
}

describe('a creation: its idempotency lock beside the gate', () => {
  it("takes the key's lock while the gate's count is still unanswered, then commits once", async () => {
    const keys = await newAccount();
    const auth = bearer(await tokenFor(keys));
    // The account's first call in the minute opens its window with a second update: past it, the count is one update.
    expect((await invokeRoute(routes.balance, { headers: auth })).status).toBe(200);
    const key = `key-beside-${keys.account_id}`;
    const { run, releasedBy } = await withGateHeld(
      (command) => command === 'PutItemCommand',
      () => invokeRoute(routes.createCustomer, { headers: { ...auth, 'idempotency-key': key }, body: customerBody() }),
    );
    expect(releasedBy).toBe('the work');
    expect(run.outcome.kind === 'returned' ? run.outcome.value.status : run.outcome.kind).toBe(200);
    expect(await customersOf(keys.account_id)).toBe(1);
    expect((await idempotencyRecord(keys.account_id, key))?.state).toBe('COMPLETED');
  }, 60_000);

  it('a Pix charge sends its id read with the gate and the lock, and commits once they are in (two waits on the table)', async () => {
    const keys = await newAccount();
    const auth = bearer(await tokenFor(keys));
    expect((await invokeRoute(routes.balance, { headers: auth })).status).toBe(200);
    const seen = new Set<string>();
    // The lock (PutItem) and the id read (one BatchGetItem of the reference and the id) went out while the gate's answer was held.
    const { run, releasedBy } = await withGateHeld(
      (command) => seen.add(command).has('PutItemCommand') && seen.has('BatchGetItemCommand'),
      () => invokeRoute(routes.createPix, { headers: { ...auth, 'idempotency-key': `key-pix-${keys.account_id}` }, body: common() }),
    );
    expect(releasedBy).toBe('the work');
    const answer = run.outcome.kind === 'returned' ? run.outcome.value : undefined;
    expect(answer?.status).toBe(200);
    // The gate, the lock and the id read (in any order), then the one commit.
    const commands = run.calls.map((c) => c.command);
    expect(commands.slice(0, 3).sort()).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'UpdateItemCommand']);
    expect(commands.slice(3)).toEqual(['TransactWriteItemsCommand']);
  }, 60_000);

  it('a card charge reads its attempt, its decline logs and its ids with the gate and the lock', async () => {
    const keys = await newAccount();
    const auth = bearer(await tokenFor(keys));
    expect((await invokeRoute(routes.balance, { headers: auth })).status).toBe(200);
    const { run, releasedBy } = await withGateHeld(
      (command, pk) => command === 'GetItemCommand' && pk.startsWith('CARDATT#'),
      () => invokeRoute(routes.createCard, { headers: { ...auth, 'idempotency-key': `key-card-${keys.account_id}` }, body: cardBody() }),
    );
    expect(releasedBy).toBe('the work');
    expect(run.outcome.kind === 'returned' ? run.outcome.value.status : run.outcome.kind).toBe(200);
  }, 60_000);

  it('leaves no lock and no resource for a call the gate refuses: revoked keys 401, a disabled account 403, past the limit 429', async () => {
    const revoked = await newAccount();
    const revokedAuth = bearer(await tokenFor(revoked));
    await rotateKeys(accountStore(), revoked.account_id);
    const r = await invokeRoute(routes.createCustomer, { headers: { ...revokedAuth, 'idempotency-key': 'key-revoked-1' }, body: customerBody() });
    expect(r.status).toBe(401);
    expect(await idempotencyRecord(revoked.account_id, 'key-revoked-1')).toBeUndefined();
    expect(await customersOf(revoked.account_id)).toBe(0);

    const disabled = await newAccount();
    const disabledAuth = bearer(await tokenFor(disabled));
    await setAccountDisabled(accountStore(), disabled.account_id, true);
    const d = await invokeRoute(routes.createCustomer, { headers: { ...disabledAuth, 'idempotency-key': 'key-disabled-1' }, body: customerBody() });
    expect(d.status).toBe(403);
    expect(await idempotencyRecord(disabled.account_id, 'key-disabled-1')).toBeUndefined();
    expect(await customersOf(disabled.account_id)).toBe(0);

    const busy = await newAccount();
    const busyAuth = bearer(await tokenFor(busy));
    const limit = getRuntime().config.rateLimits.account;
    const answers = [];
    const bodies = Array.from({ length: limit + 1 }, () => customerBody());
    for (let i = 0; i <= limit; i += 1) {
      answers.push(await invokeRoute(routes.createCustomer, { headers: { ...busyAuth, 'idempotency-key': `key-busy-${i}` }, body: bodies[i] }));
    }
    const refusedAt = answers.flatMap((a, i) => (a.status === 429 ? [i] : []));
    expect(refusedAt.length).toBeGreaterThanOrEqual(1);
    for (const i of refusedAt) expect(await idempotencyRecord(busy.account_id, `key-busy-${i}`)).toBeUndefined();
    expect(await customersOf(busy.account_id)).toBe(answers.filter((a) => a.status === 200).length);
    expect(answers.filter((a) => a.status === 200).length + refusedAt.length).toBe(limit + 1);
    // A refused call replays nothing either: a used key, once the account is disabled, is the 403.
    const used = answers.findIndex((a) => a.status === 200);
    await setAccountDisabled(accountStore(), busy.account_id, true);
    const replay = await invokeRoute(routes.createCustomer, { headers: { ...busyAuth, 'idempotency-key': `key-busy-${used}` }, body: bodies[used] });
    expect(replay.status).toBe(403);
  }, 180_000);
});

describe('a payment notification', () => {
  it('reads its invoice once (whose charge it is, then its move), then commits: two waits', async () => {
    const { auth } = await accountWithInvoice();
    const created = await createCharge('pix', auth, common());
    const txid = String(created.invoice.txid);
    const body = JSON.stringify(notification('pix-paid', { txid }));
    const header = signatureHeader(body, await providerSecret(), Math.floor(Date.now() / 1000));
    const run = await injector.run(undefined, () =>
      invokeRoute(routes.providerNotification, {
        params: { name: 'simulated' },
        headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: header },
        body,
      }),
    );
    const answer = run.outcome.kind === 'returned' ? run.outcome.value : undefined;
    expect(answer?.json).toEqual({ received: true, applied: true });
    // The per-IP counter of refused signatures is not spent by a signed notification: one read, one commit.
    expect(run.calls.map((c) => c.command)).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  }, 60_000);
});
