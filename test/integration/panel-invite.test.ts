import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys';
import { INVITE_TTL_MS } from '../../shared/domain/panel/invite';
import { getRuntime } from '../../shared/wiring/runtime';
import { tokenHash } from '../../shared/wiring/panel';
import { admin, useLocalStackEnvironment } from '../support/api';

type Keys = { account_id: string };
type Invite = { account_id: string; email: string; role: string; invite_url: string; expires_at: string };

beforeAll(() => useLocalStackEnvironment());

describe('operator CLI: npm run admin -- panel invite (issue 27)', () => {
  it('prints one JSON object with the invite link, valid 72 hours, and stores only the hash of its token', async () => {
    const account = (await admin('account', 'create', '--name', 'Padaria')).json as Keys;
    const before = Date.now();
    const out = await admin('panel', 'invite', '--account', account.account_id, '--email', ' Ana@Example.com ', '--role', 'owner');
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    const invite = out.json as Invite;
    expect(Object.keys(invite)).toEqual(['account_id', 'email', 'role', 'invite_url', 'expires_at']);
    expect(invite).toMatchObject({ account_id: account.account_id, email: 'ana@example.com', role: 'owner' });
    const url = new URL(invite.invite_url);
    expect(url.pathname).toMatch(/^\/panel\/convite\/[A-Za-z0-9_-]{43}$/);
    expect(url.search).toBe('');
    const expires = Date.parse(invite.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(INVITE_TTL_MS - 1_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(INVITE_TTL_MS);

    const token = url.pathname.split('/').pop() ?? '';
    const { db, config } = getRuntime();
    const item = (await db.send(new GetCommand({ TableName: config.tableName, Key: keys.panelInvite(tokenHash(token)) }))).Item;
    expect(item).toMatchObject({ accountId: account.account_id, email: 'ana@example.com', role: 'owner', invitedBy: 'operator', expiresAt: invite.expires_at });
    expect(JSON.stringify(item)).not.toContain(token);
    expect(item?.ttl).toBeGreaterThan(expires / 1000);
  });

  it('issues a different link for each invite', async () => {
    const account = (await admin('account', 'create', '--name', 'Two links')).json as Keys;
    const first = (await admin('panel', 'invite', '--account', account.account_id, '--email', 'bia@example.com', '--role', 'viewer')).json as Invite;
    const second = (await admin('panel', 'invite', '--account', account.account_id, '--email', 'bia@example.com', '--role', 'finance')).json as Invite;
    expect(first.invite_url).not.toBe(second.invite_url);
    expect(second.role).toBe('finance');
    // The second replaces the first (issue 43): the earlier link's item is gone, the e-mail's one live invite is the second's.
    const { db, config } = getRuntime();
    const itemOf = async (url: string) =>
      (
        await db.send(
          new GetCommand({ TableName: config.tableName, Key: keys.panelInvite(tokenHash(new URL(url).pathname.split('/').pop() ?? '')), ConsistentRead: true }),
        )
      ).Item;
    expect(await itemOf(first.invite_url)).toBeUndefined();
    expect(await itemOf(second.invite_url)).toMatchObject({ role: 'finance' });
    const live = await db.send(
      new GetCommand({ TableName: config.tableName, Key: keys.panelInviteEntry(account.account_id, 'bia@example.com'), ConsistentRead: true }),
    );
    expect(live.Item).toMatchObject({ role: 'finance', tokenHash: tokenHash(new URL(second.invite_url).pathname.split('/').pop() ?? '') });
  });

  it('refuses bad input with exit 2 and an unknown account with exit 1, printing nothing on stdout', async () => {
    const account = (await admin('account', 'create', '--name', 'Refusals')).json as Keys;
    const badRole = await admin('panel', 'invite', '--account', account.account_id, '--email', 'ana@example.com', '--role', 'root');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toMatch(/--role: Must be one of owner, admin, developer, finance, viewer/);
    expect(badRole.stdout).toBe('');
    const badEmail = await admin('panel', 'invite', '--account', account.account_id, '--email', 'not-an-email', '--role', 'viewer');
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toMatch(/--email: Must be an e-mail address/);
    const missing = await admin('panel', 'invite', '--account', account.account_id, '--role', 'viewer');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--email is required/);
    const unknown = await admin('panel', 'invite', '--account', 'acct_doesnotexist000000', '--email', 'ana@example.com', '--role', 'viewer');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Account not found/);
    expect(unknown.stdout).toBe('');
    await admin('account', 'disable', '--account', account.account_id);
    const disabled = await admin('panel', 'invite', '--account', account.account_id, '--email', 'ana@example.com', '--role', 'viewer');
    expect(disabled.code).toBe(1);
  });
});
