import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { checkoutSigningOf, checkoutSigningSecret } from '../../shared/domain/checkout-signing';
import { CheckoutSigningConflictError, setCheckoutSigning } from '../../shared/adapters/dynamo/accounts';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, admin, newAccount } from '../support/api';
import { localServiceKeys } from '../support/service-keys';

const SECRET = /^cks_[A-Za-z0-9_-]{43}$/;

type SigningOutput = { account_id: string; checkout_signing_required: boolean; secret?: string; secret_notice?: string };

const checkoutSigningKey = async (): Promise<Buffer> => (await localServiceKeys()).checkoutSigning;

/** Every item of the table, as text: the whole table, so a secret stored under any key is found. */
async function tableText(): Promise<string> {
  const store = accountStore();
  const pages: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await store.db.send(new ScanCommand({ TableName: store.table, ExclusiveStartKey: start, ConsistentRead: true }));
    pages.push(JSON.stringify(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return pages.join('\n');
}

async function accountItem(accountId: string): Promise<Record<string, unknown>> {
  const store = accountStore();
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.account(accountId), ConsistentRead: true }));
  return out.Item ?? {};
}

async function signing(...args: string[]) {
  const result = await admin('account', 'checkout-signing', ...args);
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return result.json as SigningOutput;
}

async function show(accountId: string) {
  const shown = await admin('account', 'show', '--account', accountId);
  expect(shown.code, shown.stderr).toBe(0);
  return { json: shown.json as Record<string, unknown>, stdout: shown.stdout };
}

describe('operator CLI: account checkout-signing', () => {
  it('issues a secret on the first --require on, none on the next, a new one on --rotate, none on --require off', async () => {
    const { account_id: accountId } = await newAccount();
    const key = await checkoutSigningKey();
    expect((await show(accountId)).json).toMatchObject({ checkout_signing_required: false, checkout_signing_version: 0, disabled: false });

    const first = await signing('--account', accountId, '--require', 'on');
    expect(first).toEqual({
      account_id: accountId,
      checkout_signing_required: true,
      secret: expect.stringMatching(SECRET),
      secret_notice: expect.stringMatching(/^Shown once: /),
    });
    expect(first.secret).toBe(checkoutSigningSecret(key, accountId, 1));
    expect((await show(accountId)).json).toMatchObject({ checkout_signing_required: true, checkout_signing_version: 1 });

    const again = await signing('--account', accountId, '--require', 'on');
    expect(again).toEqual({ account_id: accountId, checkout_signing_required: true });

    const rotated = await signing('--account', accountId, '--require', 'on', '--rotate');
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(first.secret);
    expect(rotated.secret).toBe(checkoutSigningSecret(key, accountId, 2));
    expect(rotated.secret_notice).toMatch(/^Shown once: /);

    const off = await signing('--account', accountId, '--require', 'off');
    expect(off).toEqual({ account_id: accountId, checkout_signing_required: false });
    const shownOff = await show(accountId);
    // Off keeps the version: the merchant may keep signing, and on again needs no new secret.
    expect(shownOff.json).toMatchObject({ checkout_signing_required: false, checkout_signing_version: 2 });
    expect(await signing('--account', accountId, '--require', 'on')).toEqual({ account_id: accountId, checkout_signing_required: true });
    expect((await show(accountId)).json).toMatchObject({ checkout_signing_required: true, checkout_signing_version: 2 });

    // Neither the table nor `account show` ever holds a secret.
    const text = await tableText();
    for (const secret of [first.secret, rotated.secret]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain((secret ?? '').slice('cks_'.length));
      expect(shownOff.stdout).not.toContain(secret);
    }
    expect(JSON.stringify(await accountItem(accountId))).not.toMatch(/cks_/);
    expect(await accountItem(accountId)).toMatchObject({ checkoutSigningRequired: true, checkoutSigningVersion: 2 });
  }, 90_000);

  it('--rotate with --require off issues a secret but leaves signing optional', async () => {
    const { account_id: accountId } = await newAccount();
    const out = await signing('--account', accountId, '--require', 'off', '--rotate');
    expect(out).toMatchObject({ account_id: accountId, checkout_signing_required: false, secret: expect.stringMatching(SECRET) });
    expect(out.secret).toBe(checkoutSigningSecret(await checkoutSigningKey(), accountId, 1));
    expect((await show(accountId)).json).toMatchObject({ checkout_signing_required: false, checkout_signing_version: 1 });
  });

  it('refuses bad flags with exit 2 and an unknown account with exit 1, one line on stderr, nothing changed', async () => {
    const { account_id: accountId } = await newAccount();
    const bad = [
      ['account', 'checkout-signing', '--account', accountId],
      ['account', 'checkout-signing', '--account', accountId, '--require', 'yes'],
      ['account', 'checkout-signing', '--account', accountId, '--require', ''],
      ['account', 'checkout-signing', '--require', 'on'],
      ['account', 'checkout-signing', '--account', accountId, '--require', 'on', '--rotate=yes'],
      ['account', 'checkout-signing', '--account', accountId, '--require', 'on', '--secret', 'x'],
      ['account', 'disable'],
      ['account', 'enable', '--account', ''],
    ];
    for (const args of bad) {
      const result = await admin(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(checkoutSigningOf(await accountItem(accountId))).toEqual({ required: false, version: 0 });

    const unknown = [
      ['account', 'checkout-signing', '--account', 'acct_doesnotexist', '--require', 'on'],
      ['account', 'checkout-signing', '--account', 'acct_doesnotexist', '--require', 'off'],
      ['account', 'checkout-signing', '--account', 'acct_doesnotexist', '--require', 'on', '--rotate'],
      ['account', 'disable', '--account', 'acct_doesnotexist'],
      ['account', 'enable', '--account', 'acct_doesnotexist'],
    ];
    for (const args of unknown) {
      const result = await admin(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toContain('acct_doesnotexist');
    }
    // No account item was created by a conditional update on an unknown account.
    expect(await accountItem('acct_doesnotexist')).toEqual({});
  }, 90_000);

  it('refuses to issue when another operator issued between its read and its write', async () => {
    const { account_id: accountId } = await newAccount();
    const store = accountStore();
    let interleaved = false;
    // The other operator's rotation lands right after this call's read of the account.
    const db = new Proxy(store.db, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
        return async (command: GetCommand) => {
          const out = await target.send(command);
          if (command instanceof GetCommand && !interleaved) {
            interleaved = true;
            await setCheckoutSigning(store, accountId, { require: true, rotate: true });
          }
          return out;
        };
      },
    });
    await expect(setCheckoutSigning({ ...store, db }, accountId, { require: true })).rejects.toBeInstanceOf(CheckoutSigningConflictError);
    expect(interleaved).toBe(true);
    expect(checkoutSigningOf(await accountItem(accountId))).toEqual({ required: true, version: 1 });
  });

  it('never issues the same version twice when operators rotate at once', async () => {
    const { account_id: accountId } = await newAccount();
    const store = accountStore();
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => setCheckoutSigning(store, accountId, { require: true, rotate: true })));
    const issued = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    for (const reason of failed) expect(reason).toBeInstanceOf(CheckoutSigningConflictError);
    expect(issued.length).toBeGreaterThanOrEqual(1);
    for (const change of issued) expect(change.issued).toBe(true);
    const versions = issued.map((c) => c.version).sort((a, b) => a - b);
    expect(new Set(versions).size).toBe(versions.length);
    // Each success moved the version on by exactly one: the final version counts them.
    expect(checkoutSigningOf(await accountItem(accountId))).toEqual({ required: true, version: issued.length });
    expect(versions).toEqual(Array.from({ length: issued.length }, (_, i) => i + 1));
  });
});

describe('operator CLI: account disable / enable', () => {
  it('round-trips, visible in account show', async () => {
    const { account_id: accountId } = await newAccount();
    expect((await show(accountId)).json).toMatchObject({ account_id: accountId, disabled: false });

    const disabled = await admin('account', 'disable', '--account', accountId);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.json).toEqual({ account_id: accountId, disabled: true });
    expect((await show(accountId)).json).toMatchObject({ disabled: true });
    expect(await accountItem(accountId)).toMatchObject({ disabled: true });

    const again = await admin('account', 'disable', '--account', accountId);
    expect(again.json).toEqual({ account_id: accountId, disabled: true });

    const enabled = await admin('account', 'enable', '--account', accountId);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.json).toEqual({ account_id: accountId, disabled: false });
    expect((await show(accountId)).json).toMatchObject({ disabled: false });
    expect(await accountItem(accountId)).toMatchObject({ disabled: false });
  }, 120_000);
});
