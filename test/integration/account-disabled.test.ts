import { describe, expect, it } from 'vitest';
import { setAccountDisabled } from '../../shared/adapters/dynamo/accounts';
import { accountStore, bearer, call, newAccount, tokenFor } from '../support/api';

/** An account the operator disabled (`npm run admin -- account disable`) is refused on every Bearer route, at once. */
describe('a disabled account', () => {
  it('gets 403 account_disabled on every Bearer call with a valid token, and works again once enabled', async () => {
    const keys = await newAccount();
    const auth = bearer(await tokenFor(keys));
    expect((await call('GET', '/api/balance', { headers: auth })).status).toBe(200);
    await setAccountDisabled(accountStore(), keys.account_id, true);
    // An account-counted read, an account-counted write and an IP-counted Bearer route (the CEP search).
    const refused = [
      await call('GET', '/api/balance', { headers: auth }),
      await call('POST', '/api/pix/create', { headers: { ...auth, 'idempotency-key': `dis-${keys.account_id}` }, body: { amount: 10 } }),
      await call('GET', '/api/cep/search/01310100', { headers: auth }),
    ];
    for (const reply of refused) {
      expect(reply.status).toBe(403);
      expect(reply.json).toEqual({ error: 'This account is disabled: contact support', code: 'account_disabled' });
    }
    await setAccountDisabled(accountStore(), keys.account_id, false);
    expect((await call('GET', '/api/balance', { headers: auth })).status).toBe(200);
    expect((await call('GET', '/api/cep/search/01310100', { headers: auth })).status).toBe(200);
  });
});
