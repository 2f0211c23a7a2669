import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { unseal } from '../../shared/platform/crypto/personal-data';
import { requestFingerprint } from '../../shared/domain/request-fingerprint';
import { IdClashError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { getRuntime } from '../../shared/wiring/runtime';
import { keys as itemKeys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { invoke } from '../support/invoke';
import { handler as probe, probeRoute } from '../support/probe-route';

const requiredRoute = { ...probeRoute, id: 'ProbeCreateRequired', idempotency: 'required' as const };
const otherRoute = { ...probeRoute, id: 'ProbeCreateOther', path: '/probe/others' };

let account: IssuedKeys;
let auth: Record<string, string>;

async function probeItems(accountId: string): Promise<number> {
  const store = accountStore();
  const out = await store.db.send(
    new QueryCommand({
      TableName: store.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `PROBE#${accountId}` },
      ConsistentRead: true,
    }),
  );
  return out.Count ?? 0;
}

/** Each test gets its own account: the per-account limit (60/min) stays out of the way. */
async function freshCaller() {
  account = await newAccount();
  auth = bearer(await tokenFor(account));
}

function key(): string {
  return `key-${randomUUID()}`;
}

describe('idempotency layer (spec 4.1) on a creation route', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('20 concurrent requests with one key create exactly one resource; every other answer is a replay of it or 409 in progress', async () => {
    await freshCaller();
    const k = key();
    const body = { name: 'concurrent', delay_ms: 300 };
    const replies = await Promise.all(Array.from({ length: 20 }, () => invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body })));
    // Which requests arrive while the first still runs depends on the machine: count outcomes, not timing.
    const fresh = replies.filter((r) => r.status === 200 && r.headers['Idempotent-Replayed'] === undefined);
    const replayed = replies.filter((r) => r.status === 200 && r.headers['Idempotent-Replayed'] === 'true');
    const busy = replies.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(replayed.length + busy.length).toBe(19);
    for (const reply of replayed) expect(reply.body).toBe(fresh[0]?.body);
    for (const reply of busy) expect(reply.json).toMatchObject({ code: 'idempotency_in_progress', error: expect.any(String) });
    expect(await probeItems(account.account_id)).toBe(1);

    const replay = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body });
    expect(replay.status).toBe(200);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(replay.body).toBe(fresh[0]?.body);
    expect(await probeItems(account.account_id)).toBe(1);
  });

  it('replays the same answer for the same key and body, in any key order, and creates nothing again', async () => {
    await freshCaller();
    const k = key();
    const first = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: '{"name":"a","outcome":"ok"}' });
    const again = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: '{"outcome":"ok","name":"a"}' });
    expect(first.status).toBe(200);
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    expect(again.status).toBe(200);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await probeItems(account.account_id)).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body or another route', async () => {
    await freshCaller();
    const k = key();
    expect((await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'one' } })).status).toBe(200);
    const otherBody = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'two' } });
    expect(otherBody.status).toBe(422);
    expect(otherBody.json).toMatchObject({ code: 'idempotency_key_reused', error: expect.any(String) });
    const other = httpHandler(otherRoute, async () => ({ status: 200, body: { other: true } }));
    const otherPath = await invoke(other, otherRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'one' } });
    expect(otherPath.status).toBe(422);
    expect(otherPath.json).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await probeItems(account.account_id)).toBe(1);
  });

  it('keys are scoped per account: another account may use the same key', async () => {
    await freshCaller();
    const k = key();
    expect((await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'x' } })).status).toBe(200);
    const firstAccount = account.account_id;
    await freshCaller();
    const second = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'x' } });
    expect(second.status).toBe(200);
    expect(second.headers['Idempotent-Replayed']).toBeUndefined();
    expect(await probeItems(firstAccount)).toBe(1);
    expect(await probeItems(account.account_id)).toBe(1);
  });

  it('stores and replays answers below 500 (a refusal stays a refusal for that key)', async () => {
    await freshCaller();
    const k = key();
    const body = { name: 'refused', outcome: 'refuse' };
    const first = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body });
    expect(first.status).toBe(400);
    const again = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body });
    expect(again.status).toBe(400);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
  });

  it('does not store a 500: the key is freed and a retry runs again; the 500 carries no detail', async () => {
    await freshCaller();
    const k = key();
    const body = { name: 'crash', outcome: 'crash' };
    const first = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body });
    expect(first.status).toBe(500);
    expect(first.json).toEqual({ error: expect.stringMatching(/^Internal error/), code: 'internal_error' });
    expect(first.body).not.toMatch(/probe crash|\/var\/task|at .*\.ts/);
    const store = accountStore();
    const record = await store.db.send(new GetCommand({ TableName: store.table, Key: itemKeys.idempotency(account.account_id, k), ConsistentRead: true }));
    expect(record.Item).toBeUndefined();
    const again = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body });
    expect(again.status).toBe(500);
    expect(again.headers['Idempotent-Replayed']).toBeUndefined();
  });

  it("a crashed attempt's lock expires, so the key is usable again; a live lock answers 409", async () => {
    await freshCaller();
    const store = accountStore();
    const now = Math.floor(Date.now() / 1000);
    const body = { name: 'after-crash' };
    const fingerprintKey = (await getRuntime().serviceKeys()).idempotency;
    const lockRecord = (k: string, lockExpiresAt: number) =>
      store.db.send(
        new PutCommand({
          TableName: store.table,
          Item: {
            ...itemKeys.idempotency(account.account_id, k),
            type: 'idempotency',
            state: 'IN_PROGRESS',
            fingerprint: requestFingerprint(probeRoute.id, body, fingerprintKey),
            lockId: 'crashed',
            lockExpiresAt,
            createdAt: now - 120,
            ttl: now + 3600,
          },
        }),
      );
    const stale = key();
    await lockRecord(stale, now - 1);
    const resumed = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': stale }, body });
    expect(resumed.status).toBe(200);
    const live = key();
    await lockRecord(live, now + 60);
    const busy = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': live }, body });
    expect(busy.status).toBe(409);
    expect(busy.json).toMatchObject({ code: 'idempotency_in_progress' });
    expect(await probeItems(account.account_id)).toBe(1);
  });

  it('validates the key (8 to 100 of A-Za-z0-9_.:-) with a 422 and requires it where the route does', async () => {
    await freshCaller();
    for (const bad of ['short', 'x'.repeat(101), 'has space here', 'ação-ação-ação']) {
      const reply = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': bad }, body: { name: 'k' } });
      expect(reply.status).toBe(422);
      expect(reply.json).toEqual({ error: { 'Idempotency-Key': [expect.any(String)] } });
    }
    expect((await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': 'a'.repeat(8) }, body: { name: 'k' } })).status).toBe(200);
    expect((await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': `Ab0_.:-${'z'.repeat(93)}` }, body: { name: 'k' } })).status).toBe(200);
    const required = httpHandler(requiredRoute, async () => ({ status: 200, body: { ok: true } }));
    const missing = await invoke(required, requiredRoute, { headers: auth, body: { name: 'k' } });
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual({ error: { 'Idempotency-Key': [expect.any(String)] } });
  });

  it('does not bind the key when the body fails validation, so a corrected retry with it succeeds', async () => {
    await freshCaller();
    const k = key();
    const invalid = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({ error: { name: [expect.any(String)] } });
    const fixed = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'fixed' } });
    expect(fixed.status).toBe(200);
  });
});

describe('request bodies (spec 7)', () => {
  beforeAll(async () => {
    useLocalStackEnvironment();
    await freshCaller();
  });

  it('answers 400 {"error"} for a body that is not JSON, or JSON but not an object', async () => {
    for (const body of ['{"name": ', 'not json', '[1,2]', '"text"', '42', 'null', '']) {
      const reply = await invoke(probe, probeRoute, { headers: auth, body });
      expect(reply.status, `body ${JSON.stringify(body)}`).toBe(400);
      expect(reply.json).toEqual({ error: expect.any(String), code: 'invalid_body' });
    }
  });

  it('answers 422 with every invalid field', async () => {
    const reply = await invoke(probe, probeRoute, { headers: auth, body: { name: 'x'.repeat(51), delay_ms: -1, outcome: 'nope' } });
    expect(reply.status).toBe(422);
    const fields = (reply.json as { error: Record<string, string[]> }).error;
    expect(Object.keys(fields).sort()).toEqual(['delay_ms', 'name', 'outcome']);
  });

  it('authenticates before it reads the body (no token → 401 even for a broken body)', async () => {
    const reply = await invoke(probe, probeRoute, { body: '{broken' });
    expect(reply.status).toBe(401);
  });

  it('commits the business write and the completed record together', async () => {
    const k = key();
    const reply = await invoke(probe, probeRoute, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'together' } });
    expect(reply.status).toBe(200);
    const store = accountStore();
    const record = await store.db.send(new GetCommand({ TableName: store.table, Key: itemKeys.idempotency(account.account_id, k), ConsistentRead: true }));
    expect(record.Item).toMatchObject({ state: 'COMPLETED', status: 200, bodySealed: expect.stringMatching(/^v1\./) });
    // The stored answer is sealed (it may hold personal data), and opens to exactly what was answered.
    expect(record.Item?.body).toBeUndefined();
    expect(JSON.stringify(record.Item)).not.toContain('together');
    const answerKey = (await getRuntime().serviceKeys()).idempotentAnswers;
    expect(unseal(String(record.Item?.bodySealed), answerKey, `idempotent-answer:${account.account_id}:${k}`)).toBe(reply.body);
  });
});

describe('retry on an id clash', () => {
  beforeAll(async () => {
    useLocalStackEnvironment();
    await freshCaller();
  });

  function clashingHandler(retryOnIdClash: boolean, takenKey: { PK: string; SK: string }) {
    let calls = 0;
    const route = { ...probeRoute, id: `ProbeClash${retryOnIdClash}`, retryOnIdClash };
    const handler = httpHandler(route, async ({ runtime }) => {
      calls += 1;
      const key = calls === 1 ? takenKey : { PK: `PROBE#clash-${randomUUID()}`, SK: 'ID' };
      return {
        status: 200,
        body: { calls },
        writes: [
          {
            Put: { TableName: runtime.config.tableName, Item: key, ConditionExpression: 'attribute_not_exists(PK)' },
            onConditionFailed: () => new IdClashError(),
          },
        ],
      };
    });
    return { route, handler, calls: () => calls };
  }

  it('draws again when a drawn id is taken, where the route allows it; otherwise answers 503 and frees the key', async () => {
    const store = accountStore();
    const taken = { PK: `PROBE#clash-${randomUUID()}`, SK: 'ID' };
    await store.db.send(new PutCommand({ TableName: store.table, Item: taken }));
    const retrying = clashingHandler(true, taken);
    const ok = await invoke(retrying.handler, retrying.route, { headers: { ...auth, 'idempotency-key': key() }, body: { name: 'clash' } });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ calls: 2 });
    const once = clashingHandler(false, taken);
    const k = key();
    const refused = await invoke(once.handler, once.route, { headers: { ...auth, 'idempotency-key': k }, body: { name: 'clash' } });
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After']).toBe('1');
    expect(once.calls()).toBe(1);
    const record = await store.db.send(new GetCommand({ TableName: store.table, Key: itemKeys.idempotency(account.account_id, k), ConsistentRead: true }));
    expect(record.Item).toBeUndefined();
  });
});
