import { performance } from 'node:perf_hooks';
import type { BuildMiddleware } from '@smithy/types';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createPix } from '../../functions/charges/pix';
import { keys } from '../../shared/adapters/dynamo/keys';
import { routes } from '../../shared/http/routes';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import { getRuntime, overrideRuntime, type Runtime } from '../../shared/wiring/runtime';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common } from '../support/charges';
import { invoke } from '../support/invoke';
import { listedItems } from '../support/ledger';

/**
 * Issue 44, finding 4: a stalled database must not hold a request past its function's timeout. The
 * table stalls (every DynamoDB call of this process waits, as on a paused DynamoDB) right after a Pix
 * creation took its idempotency lock; the creation's commit, and then the clean-up that would release
 * the lock, each give up at their deadline, so the 503 leaves inside the function's timeout. When the
 * table comes back, the calls it held are lost (a dropped connection): the lock stays, and the client's
 * retry with the same key is refused as in progress until the lock expires (IDEMPOTENCY_LOCK_SECONDS, at
 * most a minute), then runs once.
 */

/** A short function timeout for the test (the deadline and the clean-up window are counted back from it). */
const FUNCTION_TIMEOUT_MS = 4_000;
/** Without deadlines on its clean-up, the answer would wait for the table: it comes back only after this long. */
const PAUSE_MS = 9_000;

type Stall = { held: number; pause: () => void; resume: () => void };

/** Holds every DynamoDB call of `runtime.db` while paused, below the request deadline's middleware; on resume they fail, never sent. */
function installStall(runtime: Runtime): { stall: Stall; remove: () => void } {
  let back: Promise<void> | undefined;
  let release: () => void = () => undefined;
  const stall: Stall = {
    held: 0,
    pause: () => {
      back ??= new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    resume: () => {
      back = undefined;
      release();
    },
  };
  const step: BuildMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next) => async (args) => {
    if (!back) return next(args);
    stall.held += 1;
    await back;
    throw Object.assign(new Error('read ECONNRESET (the stalled table dropped the connection)'), {
      code: 'ECONNRESET',
      $metadata: { attempts: 1, totalRetryDelay: 0 },
    });
  };
  runtime.db.middlewareStack.add(step, { step: 'build', name: 'databasePause', tags: ['DATABASE_PAUSE'] });
  return { stall, remove: () => runtime.db.middlewareStack.remove('databasePause') };
}

describe('a stalled database: the answer leaves within the function timeout, the lock expires, the retry runs once', () => {
  let base: Runtime;
  let removeStall: () => void;
  let stall: Stall;

  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
    ({ stall, remove: removeStall } = installStall(base));
  });

  afterAll(() => {
    stall.resume();
    removeStall();
    overrideRuntime({ clock: base.clock });
  });

  it('Pix creation: the commit stalls → 503 within the function timeout; the same key is in progress until the lock expires, then creates one charge', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const key = `stall-${Date.now()}`;
    const body = common();
    const provider = paymentProvider(base.config);
    const charges: { -readonly [M in keyof typeof provider.charges]: (typeof provider.charges)[M] } = provider.charges;
    const original = charges.pix;
    let asked = 0;
    // The table stalls while the provider answers: the lock is held, the commit has not left.
    charges.pix = async (request) => {
      asked += 1;
      if (asked === 1) stall.pause();
      return original(request);
    };
    const comesBack = setTimeout(() => stall.resume(), PAUSE_MS);
    try {
      const started = performance.now();
      const stalled = await invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': key }, body, functionTimeoutMs: FUNCTION_TIMEOUT_MS });
      const tookMs = performance.now() - started;
      expect(stall.held).toBeGreaterThan(0);
      expect(stalled.status, stalled.body).toBe(503);
      expect(stalled.json).toMatchObject({ code: 'temporary_conflict' });
      // Inside the function's timeout (the table came back only PAUSE_MS later).
      expect(tookMs).toBeLessThan(FUNCTION_TIMEOUT_MS);
    } finally {
      clearTimeout(comesBack);
      stall.resume();
      charges.pix = original;
    }
    expect(await listedItems(keys.invoiceListPartition(account.account_id))).toHaveLength(0);

    // The lock the stalled clean-up could not release holds the key for its minute at most.
    const early = await invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': key }, body });
    expect(early.status, early.body).toBe(409);

    const later = Date.now() + 61_000;
    const started = Date.now();
    overrideRuntime({ clock: { now: () => new Date(later + (Date.now() - started)) } });
    const retried = await invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': key }, body });
    expect(retried.status, retried.body).toBe(200);
    const again = await invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': key }, body });
    expect(again.status).toBe(200);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(await listedItems(keys.invoiceListPartition(account.account_id))).toHaveLength(1);
  }, 40_000);
});
