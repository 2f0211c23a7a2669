import { describe, expect, it } from 'vitest';
import { RateLimitedError, UnauthorizedError } from '../../shared/domain/errors';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { hitAccountCounter, hitIpCounter, ipLogKey, LOG_ATTRIBUTE } from '../../shared/adapters/dynamo/rate-counter';
import { randomBytes } from 'node:crypto';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../../shared/http/edge-origin';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { accountStore, basic, bearer, call, newAccount, stack, tokenFor, uniqueIp, useLocalStackEnvironment, withinOneWindow } from '../support/api';
import { invokeRoute } from '../support/invoke-route';

function retryAfter(headers: Record<string, string | string[] | undefined>): number {
  return Number(headers['retry-after']);
}

describe('rate limits (spec 8)', () => {
  it('allows 10 POST /api/auth per minute per IP, then 429 with Retry-After; another IP is unaffected', async () => {
    const keys = await newAccount();
    const ip = uniqueIp();
    const headers = { authorization: basic(keys.public_key, keys.secret_key) };
    await withinOneWindow();
    const replies = await Promise.all(Array.from({ length: 14 }, () => call('POST', '/api/auth', { headers, sourceIp: ip })));
    const statuses = replies.map((r) => r.status);
    const limited = replies.filter((r) => r.status === 429);
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(limited.length).toBe(4);
    for (const reply of limited) {
      expect(retryAfter(reply.headers)).toBeGreaterThanOrEqual(1);
      expect(retryAfter(reply.headers)).toBeLessThanOrEqual(60);
      expect(reply.json).toMatchObject({ error: expect.any(String) });
    }
    expect((await call('POST', '/api/auth', { headers, sourceIp: uniqueIp() })).status).toBe(200);
  });

  it('counts failed auth attempts too (10 per minute per IP, whatever the keys)', async () => {
    const ip = uniqueIp();
    const headers = { authorization: basic('PUB-nobody', 'SEC-nothing') };
    const statuses: number[] = [];
    await withinOneWindow(15);
    for (let i = 0; i < 12; i += 1) statuses.push((await call('POST', '/api/auth', { headers, sourceIp: ip })).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });

  it('counts an IPv6 client by its /64: two addresses of one /64 share the per-IP limit, another /64 has its own (issue 43)', async () => {
    useLocalStackEnvironment();
    const base = getRuntime();
    const secret = randomBytes(32).toString('hex');
    // A /64 of the documentation prefix of its own (2001:db8::/32), and the viewer's address the edge names in it.
    const [site, subnet] = [randomBytes(2).readUInt16BE(0), randomBytes(2).readUInt16BE(0)];
    const prefix = `2001:db8:${site.toString(16).padStart(4, '0')}:${subnet.toString(16).padStart(4, '0')}`;
    const nextPrefix = `2001:db8:${site.toString(16)}:${(subnet ^ 1).toString(16)}`;
    const host = () => [0, 1, 2, 3].map(() => randomBytes(2).toString('hex')).join(':');
    const authFrom = async (viewer: string) =>
      (
        await invokeRoute(routes.authToken, {
          headers: { authorization: basic('PUB-nobody', 'SEC-nothing'), [EDGE_ORIGIN_HEADER]: secret, [EDGE_CLIENT_IP_HEADER]: viewer },
        })
      ).status;
    await withinOneWindow(15);
    overrideRuntime({ edgeSecret: async () => secret });
    try {
      const statuses: number[] = [];
      // Ten calls, each from another address of the /64 (as SLAAC's privacy addresses change), then one more.
      for (let i = 0; i < 11; i += 1) statuses.push(await authFrom(`${prefix}:${host()}`));
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      // The same /64 written another way (upper case, leading zeros) is the same client; the next /64 is another.
      expect(await authFrom(`${prefix.toUpperCase()}:0000:0000:0000:0001`)).toBe(429);
      expect(await authFrom(`${nextPrefix}:${host()}`)).toBe(401);
    } finally {
      overrideRuntime({ edgeSecret: base.edgeSecret });
    }
  });

  it('allows 60 calls per minute per account across all IPs, atomically under concurrency', async () => {
    const token = await tokenFor(await newAccount());
    await withinOneWindow();
    const replies = await Promise.all(Array.from({ length: 75 }, () => call('GET', '/api/balance', { headers: bearer(token), sourceIp: uniqueIp() })));
    const ok = replies.filter((r) => r.status === 200).length;
    const limited = replies.filter((r) => r.status === 429);
    expect(ok + limited.length).toBe(75);
    expect(ok).toBe(60);
    expect(limited.length).toBe(15);
    for (const reply of limited) expect(retryAfter(reply.headers)).toBeGreaterThanOrEqual(1);
    const other = await tokenFor(await newAccount());
    expect((await call('GET', '/api/balance', { headers: bearer(other) })).status).toBe(200);
  });
});

describe('RateLimit-* headers (issue 12: the document declares them, the API sends them)', () => {
  it('tells each counted call its limit, what is left and when a slot frees; a 429 says 0 left with Retry-After', async () => {
    const token = await tokenFor(await newAccount());
    await withinOneWindow();
    const first = await call('GET', '/api/balance', { headers: bearer(token) });
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('60');
    expect(first.headers['ratelimit-remaining']).toBe('59');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(59);
    expect(Number(first.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    // Sequential calls: remaining goes down by one each time, whatever the route of the account.
    const second = await call('GET', '/api/invoices', { headers: bearer(token) });
    expect(second.headers['ratelimit-remaining']).toBe('58');
    // A call counted then refused (422) still carries them.
    const refused = await call('POST', '/api/pix/create', { headers: { ...bearer(token), 'idempotency-key': `rl-${Date.now()}` }, body: { amount: -1 } });
    expect(refused.status).toBe(422);
    expect(refused.headers['ratelimit-remaining']).toBe('57');
    const rest = await Promise.all(Array.from({ length: 60 }, () => call('GET', '/api/balance', { headers: bearer(token), sourceIp: uniqueIp() })));
    const limited = rest.filter((r) => r.status === 429);
    expect(limited.length).toBe(3);
    for (const reply of limited) {
      expect(reply.headers['ratelimit-limit']).toBe('60');
      expect(reply.headers['ratelimit-remaining']).toBe('0');
      expect(reply.headers['ratelimit-reset']).toBe(reply.headers['retry-after']);
    }
  });

  it('per IP on the public and key-exchange routes; none on a route nothing counts', async () => {
    const keys = await newAccount();
    const ip = uniqueIp();
    await withinOneWindow();
    const auth = await call('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) }, sourceIp: ip });
    expect(auth.status).toBe(200);
    expect([auth.headers['ratelimit-limit'], auth.headers['ratelimit-remaining']]).toEqual(['10', '9']);
    const document = await call('GET', '/developers/openapi.yaml');
    expect(document.status).toBe(200);
    expect(document.headers['ratelimit-limit']).toBeUndefined();
  });
});

/** The counters themselves, against the local table, on a clock the test sets (milliseconds). */
describe('sliding-log counters (shared/adapters/dynamo/rate-counter.ts, issue 17 item 5)', () => {
  const T = Math.floor(Date.now() / 60_000) * 60_000 + 10 * 60_000;
  const ipHit = (ip: string, nowMs: number, limit = 10) => hitIpCounter(accountStore().db, { table: stack().tableName, limitClass: 'auth', ip, limit, nowMs });
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: unknown) =>
        err instanceof RateLimitedError ? `429 ${String(err.details?.retryAfterSeconds)}` : err instanceof UnauthorizedError ? '401' : String(err),
    );

  it('refuses calls across a clock-minute boundary until the oldest of the last 10 is 60 s old, with that Retry-After', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i += 1) expect(await outcome(ipHit(ip, T + 59_000 + i * 100))).toBe('ok');
    expect(await outcome(ipHit(ip, T + 60_500))).toBe('429 59');
    expect(await outcome(ipHit(ip, T + 118_999))).toBe('429 1');
    expect(await outcome(ipHit(ip, T + 119_000))).toBe('ok');
    expect(await outcome(ipHit(ip, T + 119_050))).toBe('429 1');
    expect(await outcome(ipHit(ip, T + 119_100))).toBe('ok');
  });

  it('admits exactly the limit under concurrency, first call of a new item included', async () => {
    const ip = uniqueIp();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(ipHit(ip, T + i))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    expect(results.filter((r) => r.startsWith('429 '))).toHaveLength(20);
  });

  it('keeps the most recent calls when the limit changes: lowered, the log is cut; raised, it is padded', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i += 1) expect(await outcome(ipHit(ip, T + i * 1000))).toBe('ok');
    // Lowered to 5: the last five calls (T+5 s..T+9 s) fill it; the oldest of them leaves at T+65 s.
    expect(await outcome(ipHit(ip, T + 30_000, 5))).toBe('429 35');
    expect(await outcome(ipHit(ip, T + 65_000, 5))).toBe('ok');
    // Raised to 8: the five logged calls (T+6 s..T+9 s, T+65 s) stay, three slots are free.
    for (let i = 0; i < 3; i += 1) expect(await outcome(ipHit(ip, T + 65_100 + i, 8))).toBe('ok');
    expect(await outcome(ipHit(ip, T + 65_103, 8))).toBe('429 1');
    expect(await outcome(ipHit(ip, T + 66_000, 8))).toBe('ok');
  });

  it('reads a log written in epoch milliseconds (before issue 26) exactly, and stores it in tenths at its next write', async () => {
    const ip = uniqueIp();
    const key = ipLogKey('auth', ip);
    // Ten calls logged the earlier way, the oldest at T + 1.234 s: the log is full until T + 61.234 s.
    const legacy = Array.from({ length: 10 }, (_, i) => T + 1_234 + i * 1_000);
    await accountStore().db.send(new PutCommand({ TableName: stack().tableName, Item: { ...key, [LOG_ATTRIBUTE]: legacy } }));
    expect(await outcome(ipHit(ip, T + 30_000))).toBe('429 32');
    expect(await outcome(ipHit(ip, T + 61_233))).toBe('429 1');
    expect(await outcome(ipHit(ip, T + 61_234))).toBe('ok');
    const stored = (await accountStore().db.send(new GetCommand({ TableName: stack().tableName, Key: key, ConsistentRead: true }))).Item?.[
      LOG_ATTRIBUTE
    ] as number[];
    expect(stored).toHaveLength(10);
    expect(stored.every((t) => t > 0 && t < 1e11)).toBe(true);
    // The nine older calls still count: the second oldest (T + 2.234 s, now stored rounded up to T + 2.3 s)
    // frees the next slot, never earlier than its real time.
    expect(await outcome(ipHit(ip, T + 62_000))).toBe('429 1');
    expect(await outcome(ipHit(ip, T + 62_233))).toBe('429 1');
    expect(await outcome(ipHit(ip, T + 62_300))).toBe('ok');
  });

  it('checks the key version on every account call, a full log included: a rotated key is 401, never 429', async () => {
    const keys = await newAccount();
    const hit = (nowMs: number, keyVersion = 1) =>
      hitAccountCounter(accountStore().db, { table: stack().tableName, accountId: keys.account_id, keyVersion, limit: 3, nowMs, returnItem: false });
    for (let i = 0; i < 3; i += 1) expect(await outcome(hit(T + i))).toBe('ok');
    expect(await outcome(hit(T + 10))).toBe('429 60');
    expect(await outcome(hit(T + 10, 2))).toBe('401');
    expect(
      await outcome(
        hitAccountCounter(accountStore().db, { table: stack().tableName, accountId: 'acct_nosuch', keyVersion: 1, limit: 3, nowMs: T, returnItem: false }),
      ),
    ).toBe('401');
  });
});
