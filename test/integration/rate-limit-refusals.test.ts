import { describe, expect, it } from 'vitest';
import { SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { call, uniqueIp } from '../support/api';

/**
 * Issue 31: refused calls that were counted (a Bearer call with a bad token, counted per IP; a provider
 * notification whose signature is refused, counted per IP) answer with the RateLimit-* headers too, as
 * the README promises of every counted call.
 */
describe('RateLimit-* headers on refused counted calls', () => {
  it('a Bearer call with an invalid token: 401 with the per-IP quota, which goes down call by call', async () => {
    const ip = uniqueIp();
    const first = await call('GET', '/api/balance', { headers: { authorization: 'Bearer not-a-token' }, sourceIp: ip });
    const second = await call('GET', '/api/balance', { headers: { authorization: 'Bearer not-a-token' }, sourceIp: ip });
    expect([first.status, second.status]).toEqual([401, 401]);
    expect(first.headers['ratelimit-limit']).toBe('60');
    expect([first.headers['ratelimit-remaining'], second.headers['ratelimit-remaining']]).toEqual(['59', '58']);
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(0);
  });

  it('a provider notification whose signature is refused: 401 with the per-IP quota of refused signatures', async () => {
    const ip = uniqueIp();
    const reply = await call('POST', '/provider/simulated/notifications', {
      headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: 't=1,v1=00' },
      body: { id: 'x' },
      sourceIp: ip,
    });
    expect(reply.status).toBe(401);
    expect(reply.headers['ratelimit-limit']).toBe('300');
    expect(reply.headers['ratelimit-remaining']).toBe('299');
  });
});
