import { describe, expect, it } from 'vitest';
import { admin, newAccount } from '../support/api';
import { enterCheckout, entryForm } from '../support/checkout';

/**
 * Callback origins (issue 31): the entry refuses a callback_url not in canonical form, and, once the
 * operator set an account's allowed origins (`account callback-origins`), one on another origin.
 */
describe('callback origins of the hosted checkout', () => {
  it('refuses a non-canonical callback_url at the entry (422 page on callback_url), nothing created', async () => {
    const account = await newAccount();
    for (const url of ['https://evil.example\\@shop.example/x', 'https:\\\\evil.example\\x', 'https://shop.\u0435xample/x', ' https://shop.example/x']) {
      const { reply, page } = await enterCheckout(entryForm(account, { callback_url: url }));
      expect(reply.status, url).toBe(422);
      expect(reply.text, url).toContain('callback_url');
      expect(page, url).toBe('');
    }
  });

  it('with allowed origins set by the operator: another origin is refused, a listed one accepted; "none" lifts it', async () => {
    const account = await newAccount();
    const set = await admin('account', 'callback-origins', '--account', account.account_id, '--origins', 'https://shop.example,https://loja.example:8443');
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toEqual({ account_id: account.account_id, callback_origins: ['https://shop.example', 'https://loja.example:8443'] });
    expect(((await admin('account', 'show', '--account', account.account_id)).json as { callback_origins: string[] }).callback_origins).toEqual([
      'https://shop.example',
      'https://loja.example:8443',
    ]);

    const elsewhere = await enterCheckout(entryForm(account, { callback_url: 'https://elsewhere.example/done' }));
    expect(elsewhere.reply.status).toBe(422);
    expect(elsewhere.reply.text).toContain('não está entre os autorizados');
    expect((await enterCheckout(entryForm(account, { callback_url: 'https://loja.example:8443/fim' }))).reply.status).toBe(303);

    expect((await admin('account', 'callback-origins', '--account', account.account_id, '--origins', 'none')).json).toEqual({
      account_id: account.account_id,
      callback_origins: [],
    });
    expect((await enterCheckout(entryForm(account, { callback_url: 'https://elsewhere.example/done' }))).reply.status).toBe(303);
  }, 120_000);

  it('the CLI refuses an origin that is not canonical (exit 2), changing nothing', async () => {
    const account = await newAccount();
    const refused = await admin('account', 'callback-origins', '--account', account.account_id, '--origins', 'https://shop.example/paid');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('https://shop.example/paid');
    expect(((await admin('account', 'show', '--account', account.account_id)).json as { callback_origins: string[] }).callback_origins).toEqual([]);
  }, 60_000);
});
