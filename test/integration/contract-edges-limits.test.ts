/**
 * Issue 17, items 4 and 5: calls without a valid token are limited per IP (429 with Retry-After), the
 * provider's notifications and the boleto page too; and limits hold in ANY 60 s window, not per clock
 * minute. The stack runs on the real clock, so the straddle test waits for a minute boundary.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { basic, bearer, call, newAccount, type Reply, tokenFor, uniqueIp } from '../support/api';
import { notification, providerSecret } from '../support/provider';

/** Defaults of shared/platform/config.ts (the test stack sets none of these). */
const AUTH_LIMIT = 10;
const ACCOUNT_LIMIT = 60;
const UNAUTHENTICATED_LIMIT = 60;
const PUBLIC_LIMIT = 300;

const retryAfter = (reply: Reply) => Number(reply.headers['retry-after']);

/** `count` calls, `width` at a time, answers in the order they were asked. */
async function inBatches(count: number, width: number, send: (i: number) => Promise<Reply>): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, k) => send(start + k));
    replies.push(...(await Promise.all(batch)));
  }
  return replies;
}

function statusCounts(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

function expectLimited(replies: Reply[]): void {
  for (const reply of replies) {
    expect(reply.status).toBe(429);
    expect(retryAfter(reply)).toBeGreaterThanOrEqual(1);
    expect(retryAfter(reply)).toBeLessThanOrEqual(60);
    expect(reply.json).toMatchObject({ error: expect.any(String) });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('limits hold in any 60 s window (issue 17, item 5)', () => {
  it('refuses a second burst sent just after a clock-minute boundary: 10 tokens + 60 account calls before, none after', async () => {
    const keys = await newAccount();
    const token = await tokenFor(keys);
    const authIp = uniqueIp();
    const authHeaders = { authorization: basic(keys.public_key, keys.secret_key) };
    // Start about 8 s before a minute boundary, so a fixed window would reopen between the bursts.
    await sleep((52_000 - (Date.now() % 60_000) + 60_000) % 60_000);
    const firstStart = Date.now();
    const boundary = Math.ceil(firstStart / 60_000) * 60_000;

    const first = await Promise.all([
      inBatches(AUTH_LIMIT, 1, () => call('POST', '/api/auth', { headers: authHeaders, sourceIp: authIp })),
      inBatches(ACCOUNT_LIMIT, 20, () => call('GET', '/api/balance', { headers: bearer(token) })),
    ]);
    expect(first[0].map((r) => r.status)).toEqual(Array(AUTH_LIMIT).fill(200));
    expect(first[1].map((r) => r.status)).toEqual(Array(ACCOUNT_LIMIT).fill(200));

    // Just past that minute boundary (at once if the first burst already crossed it): well inside 60 s of it.
    await sleep(Math.max(0, boundary + 500 - Date.now()));
    const secondStart = Date.now();
    const [auth, balance] = await Promise.all([
      inBatches(AUTH_LIMIT, 1, () => call('POST', '/api/auth', { headers: authHeaders, sourceIp: authIp })),
      inBatches(5, 5, () => call('GET', '/api/balance', { headers: bearer(token) })),
    ]);
    expectLimited(auth);
    expectLimited(balance);
    // Retry-After counts from the first burst's oldest call, not to the next clock minute.
    const elapsed = Math.floor((secondStart - firstStart) / 1000);
    for (const reply of [...auth, ...balance]) expect(retryAfter(reply)).toBeLessThanOrEqual(60 - elapsed + 1);
    // Another IP is not touched by the auth burst.
    expect((await call('POST', '/api/auth', { headers: authHeaders, sourceIp: uniqueIp() })).status).toBe(200);
  }, 150_000);
});

describe('calls without a valid token are limited per IP (issue 17, item 4)', () => {
  it('answers 401 to the first 60 garbage or missing tokens from one IP, then 429 with Retry-After', async () => {
    const ip = uniqueIp();
    const replies = await inBatches(200, 10, (i) =>
      call('GET', '/api/balance', { headers: i % 4 === 0 ? {} : { authorization: `Bearer garbage-${i}` }, sourceIp: ip }),
    );
    expect(statusCounts(replies)).toEqual({ 401: UNAUTHENTICATED_LIMIT, 429: 200 - UNAUTHENTICATED_LIMIT });
    expectLimited(replies.filter((r) => r.status === 429));
    // Another IP still gets its 401; every Bearer route shares the IP's count.
    expect((await call('GET', '/api/balance', { headers: { authorization: 'Bearer garbage' }, sourceIp: uniqueIp() })).status).toBe(401);
    expect((await call('GET', '/api/invoices', { headers: { authorization: 'Bearer garbage' }, sourceIp: ip })).status).toBe(429);
  });

  it('does not refuse a valid token from a flooded IP: only failed tokens count', async () => {
    const ip = uniqueIp();
    const token = await tokenFor(await newAccount());
    await inBatches(UNAUTHENTICATED_LIMIT + 1, 20, () => call('GET', '/api/balance', { headers: { authorization: 'Bearer nope' }, sourceIp: ip }));
    expect((await call('GET', '/api/balance', { headers: { authorization: 'Bearer nope' }, sourceIp: ip })).status).toBe(429);
    expect((await call('GET', '/api/balance', { headers: bearer(token), sourceIp: ip })).status).toBe(200);
  });

  it('counts the boleto page per IP: 300 answers, then 429 with Retry-After', async () => {
    const ip = uniqueIp();
    const replies = await inBatches(PUBLIC_LIMIT + 10, 25, () => call('GET', '/boleto/INV-NOSUCH1/not-a-real-token', { sourceIp: ip }));
    const counts = statusCounts(replies);
    expect(counts[429]).toBe(10);
    expect(replies.filter((r) => r.status !== 429)).toHaveLength(PUBLIC_LIMIT);
    expect(replies.filter((r) => r.status !== 429 && r.status >= 500)).toEqual([]);
    expectLimited(replies.filter((r) => r.status === 429));
    expect((await call('GET', '/boleto/INV-NOSUCH1/not-a-real-token', { sourceIp: uniqueIp() })).status).not.toBe(429);
  });

  it("counts the provider route's refused signatures per IP: 300 answers, then 429 with Retry-After; signed notifications are never limited", async () => {
    const ip = uniqueIp();
    const body = { type: 'pix.paid', txid: 'nosuch' };
    const replies = await inBatches(PUBLIC_LIMIT + 10, 25, () => call('POST', '/provider/simulated/notifications', { body, sourceIp: ip }));
    const counts = statusCounts(replies);
    expect(counts[429]).toBe(10);
    expect(replies.filter((r) => r.status !== 429)).toHaveLength(PUBLIC_LIMIT);
    expect(replies.filter((r) => r.status !== 429).every((r) => r.status === 401)).toBe(true);
    expectLimited(replies.filter((r) => r.status === 429));
    // The provider's own address, past the limit of refused ones: a signed notification still passes,
    // and 310 more signed ones are not counted (all of a provider's notifications come from a few addresses).
    const secret = await providerSecret();
    const signed = () => {
      const text = JSON.stringify(notification('pix-paid', { txid: `nosuch${randomUUID().slice(0, 8)}` }));
      const header = signatureHeader(text, secret, Math.floor(Date.now() / 1000));
      return call('POST', '/provider/simulated/notifications', {
        body: text,
        headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: header },
        sourceIp: ip,
      });
    };
    const accepted = await inBatches(PUBLIC_LIMIT + 10, 25, signed);
    expect(statusCounts(accepted)).toEqual({ 200: PUBLIC_LIMIT + 10 });
  });
});
