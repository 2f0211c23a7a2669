import { beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../shared/adapters/dynamo/accounts';
import { signToken } from '../../shared/domain/auth/token';
import { accountStore, basic, bearer, call, newAccount, tokenFor } from '../support/api';
import { scanAll } from '../support/ledger';
import { tokenSigningKey } from '../support/tokens';

const signingKey = tokenSigningKey;

describe('POST /api/auth (spec 4.2, 5)', () => {
  it('exchanges valid keys for a Bearer token with the configured lifetime (default 30 days)', async () => {
    const keys = await newAccount();
    const reply = await call('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } });
    expect(reply.status).toBe(200);
    const body = reply.json as { success: { token: string; token_type: string; expires_in: number } };
    expect(body.success.token_type).toBe('Bearer');
    expect(body.success.expires_in).toBe(30 * 24 * 60 * 60);
    expect(body.success.token).toMatch(/^pgt_/);
    const balance = await call('GET', '/api/balance', { headers: bearer(body.success.token) });
    expect(balance.status).toBe(200);
    expect(balance.json).toEqual({ balance: { available: '0.00', reserved: '0.00', currency: 'BRL' } });
  });

  it('answers 401 for a wrong secret, an unknown public key and a missing header', async () => {
    const keys = await newAccount();
    const cases: Record<string, string>[] = [
      { authorization: basic(keys.public_key, `${keys.secret_key}x`) },
      { authorization: basic('PUB-unknown', keys.secret_key) },
      {},
    ];
    for (const headers of cases) {
      const reply = await call('POST', '/api/auth', { headers });
      expect(reply.status).toBe(401);
      expect(typeof (reply.json as { error: unknown }).error).toBe('string');
    }
  });

  it('answers 400 for a malformed Basic header (not base64, or no colon)', async () => {
    for (const authorization of ['Basic !!!not-base64!!!', `Basic ${Buffer.from('no-colon-here').toString('base64')}`]) {
      const reply = await call('POST', '/api/auth', { headers: { authorization } });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ error: expect.any(String) });
    }
  });

  it('never stores the secret key in a readable form', async () => {
    const keys = await newAccount();
    const items = await scanAll();
    expect(items.length).toBeGreaterThan(0);
    expect(JSON.stringify(items)).not.toContain(keys.secret_key);
    expect(JSON.stringify(items)).not.toContain(keys.secret_key.slice(4));
  });
});

describe('Bearer tokens on the other /api routes', () => {
  let key: Buffer;
  beforeAll(async () => {
    key = await signingKey();
  });

  it('answers 401 when the token is missing, malformed or not Bearer', async () => {
    const cases: Record<string, string>[] = [{}, { authorization: 'Bearer' }, { authorization: 'Bearer not-a-token' }, { authorization: 'Token abc' }];
    for (const headers of cases) {
      const reply = await call('GET', '/api/balance', { headers });
      expect(reply.status).toBe(401);
      expect(reply.json).toMatchObject({ error: expect.any(String) });
    }
  });

  it('answers 401 for a token with a forged signature', async () => {
    const keys = await newAccount();
    const token = await tokenFor(keys);
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await call('GET', '/api/balance', { headers: bearer(forged) })).status).toBe(401);
  });

  it('answers 401 for an expired token and for an unknown account', async () => {
    const keys = await newAccount();
    const now = Math.floor(Date.now() / 1000);
    const expired = signToken({ accountId: keys.account_id, keyVersion: 1, issuedAt: now - 100, expiresAt: now - 1 }, key);
    const expiredReply = await call('GET', '/api/balance', { headers: bearer(expired) });
    expect(expiredReply.status).toBe(401);
    expect((expiredReply.json as { error: string }).error).toMatch(/expired/i);
    const valid = signToken({ accountId: keys.account_id, keyVersion: 1, issuedAt: now, expiresAt: now + 60 }, key);
    expect((await call('GET', '/api/balance', { headers: bearer(valid) })).status).toBe(200);
    const ghost = signToken({ accountId: 'acct_doesnotexist000000', keyVersion: 1, issuedAt: now, expiresAt: now + 60 }, key);
    expect((await call('GET', '/api/balance', { headers: bearer(ghost) })).status).toBe(401);
  });

  it('revokes every older token and the old keys at once when keys are rotated', async () => {
    const keys = await newAccount();
    const oldToken = await tokenFor(keys);
    expect((await call('GET', '/api/balance', { headers: bearer(oldToken) })).status).toBe(200);
    const fresh = await rotateKeys(accountStore(), keys.account_id);
    const revoked = await call('GET', '/api/balance', { headers: bearer(oldToken) });
    expect(revoked.status).toBe(401);
    expect((await call('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } })).status).toBe(401);
    const newToken = await tokenFor(fresh);
    expect((await call('GET', '/api/balance', { headers: bearer(newToken) })).status).toBe(200);
  });
});
