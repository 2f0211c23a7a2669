import type { InitializeMiddleware } from '@smithy/types';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys, setAccountDisabled } from '../../shared/adapters/dynamo/accounts';
import { routes } from '../../shared/http/routes';
import { getRuntime } from '../../shared/runtime';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common, createCharge } from '../support/charges';
import { type FaultInjector, installFaultInjector } from '../support/fault-injection';
import { invokeRoute } from '../support/invoke-route';

/**
 * Issue 26: a read route's read goes out beside the gate (the account's count), not after it. The
 * answer waits for both; a refusal of the gate (401, 403, 429) is the answer and the read is thrown away.
 */
let injector: FaultInjector;
const SEEN_READ = 'gate-beside-seen-read';
let onRead: (() => void) | undefined;

beforeAll(() => {
  useLocalStackEnvironment();
  const db = getRuntime().db;
  injector = installFaultInjector(db);
  const seen: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => (args) => {
    if (context.commandName === 'GetItemCommand') onRead?.();
    return next(args);
  };
  db.middlewareStack.add(seen, { step: 'initialize', name: SEEN_READ, priority: 'low' });
});

afterAll(() => {
  injector.remove();
  getRuntime().db.middlewareStack.remove(SEEN_READ);
});

async function accountWithInvoice() {
  const keys = await newAccount();
  const auth = bearer(await tokenFor(keys));
  const created = await createCharge('pix', auth, common());
  return { keys, auth, reference: String(created.invoice.reference) };
}

describe('a read beside the gate', () => {
  it("sends its read while the gate's count is still unanswered, and answers once both are in", async () => {
    const { auth, reference } = await accountWithInvoice();
    // The gate's counting update takes effect but its answer is held until the read has gone out: in the
    // old order (the read after the gate) the read cannot go out first, and the hold ends by the timeout.
    let releasedBy: 'read' | 'timeout' | undefined;
    const release = new Promise<void>((resolve) => {
      onRead = () => {
        releasedBy ??= 'read';
        resolve();
      };
      setTimeout(() => {
        releasedBy ??= 'timeout';
        resolve();
      }, 20_000);
    });
    const run = await injector.run(
      { at: { command: 'UpdateItemCommand', nth: 0 }, holdUntil: release },
      () => invokeRoute(routes.getInvoiceByReference, { params: { ref_id: reference }, headers: auth }),
    );
    onRead = undefined;
    expect(releasedBy).toBe('read');
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
    for (let i = 0; i <= limit; i += 1) answers.push(await invokeRoute(routes.getInvoiceByReference, { params: { ref_id: busy.reference }, headers: busy.auth }));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.body).not.toContain(busy.reference);
      expect(answer.headers['retry-after'] ?? answer.headers['Retry-After']).toBeDefined();
    }
    expect(answers.filter((a) => a.status === 200).length + refused.length).toBe(limit + 1);
  }, 120_000);
});
