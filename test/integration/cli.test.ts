import { describe, expect, it } from 'vitest';
import { admin, basic, bearer, call, tokenFor } from '../support/api';

type Keys = { account_id: string; public_key: string; secret_key: string };

describe('operator CLI: npm run admin -- account ...', () => {
  it('creates an account with keys, and each command prints one JSON object', async () => {
    const created = await admin('account', 'create', '--name', 'Loja Teste', '--methods', 'pix,card', '--withdraw-fee', '1.50');
    expect(created.code).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const keys = created.json as Keys;
    expect(keys.account_id).toMatch(/^acct_/);
    expect(keys.public_key).toMatch(/^PUB-/);
    expect(keys.secret_key).toMatch(/^SEC-/);

    const shown = await admin('account', 'show', '--account', keys.account_id);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({
      account_id: keys.account_id,
      name: 'Loja Teste',
      methods: ['pix', 'card'],
      withdraw_fee: '1.50',
      balance: '0.00',
      webhook_url: null,
    });
    expect(shown.stdout).not.toContain(keys.secret_key);

    const methods = await admin('account', 'set-methods', '--account', keys.account_id, '--methods', 'boleto,pix');
    expect(methods.json).toEqual({ account_id: keys.account_id, methods: ['pix', 'boleto'] });
    expect((await admin('account', 'show', '--account', keys.account_id)).json).toMatchObject({ methods: ['pix', 'boleto'] });
  });

  it('credits the balance as a ledger entry, visible through the API', async () => {
    const keys = (await admin('account', 'create', '--name', 'Credit')).json as Keys;
    const credit = await admin('account', 'credit', '--account', keys.account_id, '--amount', '100.00');
    expect(credit.code).toBe(0);
    expect(credit.json).toMatchObject({ account_id: keys.account_id, amount: '100.00', entry_id: expect.stringMatching(/^txn_[A-Za-z0-9]{24}$/) });
    await admin('account', 'credit', '--account', keys.account_id, '--amount', '0.05');
    const token = await tokenFor(keys);
    const balance = await call('GET', '/api/balance', { headers: bearer(token) });
    expect(balance.json).toEqual({ balance: { available: '100.05', reserved: '0.00', currency: 'BRL' } });
  });

  it('rotates keys: the old keys and every token issued from them stop working at once', async () => {
    const keys = (await admin('account', 'create', '--name', 'Rotate')).json as Keys;
    const oldToken = await tokenFor(keys);
    const rotated = await admin('account', 'rotate-keys', '--account', keys.account_id);
    expect(rotated.code).toBe(0);
    const fresh = rotated.json as Keys;
    expect(fresh.public_key).not.toBe(keys.public_key);
    expect((await call('GET', '/api/balance', { headers: bearer(oldToken) })).status).toBe(401);
    expect((await call('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } })).status).toBe(401);
    expect((await call('GET', '/api/balance', { headers: bearer(await tokenFor(fresh)) })).status).toBe(200);
  });

  it('exits non-zero with a one-line message on stderr for bad input', { timeout: 180_000 }, async () => {
    const cases = [
      ['account', 'create'],
      ['account', 'create', '--name', 'X', '--methods', 'pix,bitcoin'],
      ['account', 'credit', '--account', 'acct_x', '--amount', '1.234'],
      ['account', 'credit', '--account', 'acct_x', '--amount', '0'],
      ['account', 'show', '--account', 'acct_doesnotexist'],
      ['account', 'fly'],
      ['nothing'],
    ];
    for (const args of cases) {
      const result = await admin(...args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('refuses a withdrawal fee that leaves nothing to withdraw, naming the limit', { timeout: 60_000 }, async () => {
    const result = await admin('account', 'create', '--name', 'Fee Too High', '--withdraw-fee', '99999999.99');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--withdraw-fee: A withdrawal fee must be below 99999999.99');
  });
});
