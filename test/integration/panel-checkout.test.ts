import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { checkoutSigningSecret } from '../../shared/domain/checkout-signing';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, admin } from '../support/api';
import { localServiceKeys } from '../support/service-keys';
import { scanAll } from '../support/ledger';
import { acceptInvite, elementText, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

const checkoutSigningKey = async (): Promise<Buffer> => (await localServiceKeys()).checkoutSigning;

async function signingOf(accountId: string) {
  const store = accountStore();
  const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.account(accountId), ConsistentRead: true }))).Item ?? {};
  return { required: item.checkoutSigningRequired, version: item.checkoutSigningVersion };
}

describe('merchant panel: the hosted checkout’s signed forms (issue 27)', () => {
  it('requires signed forms (the first secret shown once), rotates the secret, turns signing off keeping it; each with a fresh code, each audited', async () => {
    const dev = await enrolledPerson('developer');
    const key = await checkoutSigningKey();
    const jar = new Jar();
    expect((await signIn(jar, dev)).status).toBe(303);
    const page = await get(jar, '/panel/checkout');
    expect(page.status).toBe(200);
    expect(elementText(page.text, 'checkout-signing')).toBe('opcionais');
    expect(elementText(page.text, 'checkout-secret-state')).toBe('nenhum');
    const csrf = hidden(page.text, 'csrf_token');

    // A wrong code changes nothing; neither does a value that is not on or off.
    const wrong = await post(jar, '/panel/checkout', { csrf_token: csrf, require: 'on', code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(escaped(WRONG_CODE));
    expect((await post(jar, '/panel/checkout', { csrf_token: csrf, require: 'talvez', code: '000000' })).status).toBe(422);
    expect(await signingOf(dev.accountId)).toEqual({ required: undefined, version: undefined });

    const on = await post(jar, '/panel/checkout', { csrf_token: csrf, require: 'on', code: await freshCode(dev) });
    expect(on.status).toBe(200);
    const first = elementText(on.text, 'checkout-secret');
    expect(first).toBe(checkoutSigningSecret(key, dev.accountId, 1));
    expect(await signingOf(dev.accountId)).toEqual({ required: true, version: 1 });
    // Shown once: the page afterwards says a secret exists, never which.
    const after = await get(jar, '/panel/checkout');
    expect(elementText(after.text, 'checkout-signing')).toBe('exigidos');
    expect(elementText(after.text, 'checkout-secret-state')).toBe('emitido');
    expect(after.text).not.toContain(first);

    const rotated = await post(jar, '/panel/checkout/segredo', { csrf_token: csrf, code: await freshCode(dev) });
    expect(rotated.status).toBe(200);
    const second = elementText(rotated.text, 'checkout-secret');
    expect(second).toBe(checkoutSigningSecret(key, dev.accountId, 2));
    expect(second).not.toBe(first);
    expect(await signingOf(dev.accountId)).toEqual({ required: true, version: 2 });

    // Off keeps the secret (the CLI's test shows that turning it on again issues none: the same rule).
    const off = await post(jar, '/panel/checkout', { csrf_token: csrf, require: 'off', code: await freshCode(dev) });
    expect(off.status).toBe(200);
    expect(off.text).not.toContain('id="checkout-secret"');
    expect(elementText(off.text, 'checkout-secret-state')).toBe('emitido');
    expect(await signingOf(dev.accountId)).toEqual({ required: false, version: 2 });

    const audit = await scanAll({
      FilterExpression: '#t = :t AND email = :e',
      ExpressionAttributeNames: { '#t': 'type' },
      ExpressionAttributeValues: { ':t': 'panel_audit', ':e': dev.email },
    });
    const actions = audit.map((entry) => String(entry.action)).filter((action) => action.startsWith('checkout.'));
    expect(actions.sort()).toEqual(['checkout.signing_secret_rotated', 'checkout.signing_secret_rotated', 'checkout.signing_set']);
    // No secret in the audit log.
    expect(JSON.stringify(audit)).not.toContain('cks_');
  }, 180_000);

  it('lets finance and viewers read the page but not change it', async () => {
    const owner = await enrolledPerson('owner');
    const email = `financeiro${Date.now()}@example.com`;
    const invite = (await admin('panel', 'invite', '--account', owner.accountId, '--email', email, '--role', 'finance')).json as { invite_url: string };
    const finance = { accountId: owner.accountId, keys: owner.keys, ...(await acceptInvite(invite.invite_url, email)) };
    const jar = new Jar();
    expect((await signIn(jar, finance)).status).toBe(303);
    const page = await get(jar, '/panel/checkout');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Gerar novo segredo');
    const csrf = hidden(page.text, 'csrf_token');
    // The role is refused before any code is asked (a code is never spent on a refusal).
    expect((await post(jar, '/panel/checkout', { csrf_token: csrf, require: 'on', code: '000000' })).status).toBe(403);
    expect((await post(jar, '/panel/checkout/segredo', { csrf_token: csrf, code: '000000' })).status).toBe(403);
    expect(await signingOf(owner.accountId)).toEqual({ required: undefined, version: undefined });
  }, 120_000);
});
