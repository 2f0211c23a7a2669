import { describe, expect, it } from 'vitest';
import { basic, bearer, call, newAccount, tokenFor, uniqueIp, withinOneWindow } from '../support/api';

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
