import { describe, expect, it } from 'vitest';
import { admin } from '../support/api';
import { acceptInvite, type Enrolled, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';

/** The team page's people: e-mail → role. */
async function team(jar: Jar): Promise<Record<string, string>> {
  const page = await get(jar, '/panel/equipe');
  expect(page.status).toBe(200);
  return Object.fromEntries([...page.text.matchAll(/<tr data-person="[^"]+" data-role="(\w+)"><td>([^<( ]+)/g)].map((m) => [m[2], m[1]]));
}

async function personIdOf(jar: Jar, email: string): Promise<string> {
  const page = await get(jar, '/panel/equipe');
  const id = new RegExp(`<tr data-person="([^"]+)" data-role="\\w+"><td>${email.replace(/[.]/g, '\\.')}`).exec(page.text)?.[1];
  if (!id) throw new Error(`${email} not in the team`);
  return id;
}

async function signedIn(person: Enrolled): Promise<{ jar: Jar; csrf: string }> {
  const jar = new Jar();
  expect((await signIn(jar, person)).status).toBe(303);
  return { jar, csrf: hidden((await get(jar, '/panel/equipe')).text, 'csrf_token') };
}

describe('merchant panel: the team (issue 27)', () => {
  it('invites, changes a role and removes with a fresh code; nobody demotes the last owner; a removed person’s session stops at once', async () => {
    const owner = await enrolledPerson('owner');
    const a = await signedIn(owner);
    expect(await team(a.jar)).toEqual({ [owner.email]: 'owner' });

    // An invite from the panel: the operator's own use case, its link shown once.
    const email = `equipe${Date.now()}@example.com`;
    const invited = await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email, role: 'finance', code: await freshCode(owner) });
    expect(invited.status).toBe(200);
    const link = /id="invite-url">([^<]+)</.exec(invited.text)?.[1] ?? '';
    expect(link).toMatch(/\/panel\/convite\/[A-Za-z0-9_-]{43}$/);
    const member: Enrolled = { accountId: owner.accountId, keys: owner.keys, ...(await acceptInvite(link, email)) };
    expect(await team(a.jar)).toEqual({ [owner.email]: 'owner', [email]: 'finance' });
    // The same e-mail again: 409, nothing sent (refused before the code is read).
    expect((await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email, role: 'viewer', code: '000000' })).status).toBe(409);

    const memberId = await personIdOf(a.jar, email);
    const promoted = await post(a.jar, '/panel/equipe/papel', { csrf_token: a.csrf, person: memberId, role: 'admin', code: await freshCode(owner) });
    expect([promoted.status, promoted.location]).toEqual([303, '/panel/equipe']);
    expect((await team(a.jar))[email]).toBe('admin');

    // An admin neither touches an owner; the only owner cannot demote themselves (refused before any code).
    const b = await signedIn(member);
    const ownerId = await personIdOf(b.jar, owner.email);
    expect((await post(b.jar, '/panel/equipe/papel', { csrf_token: b.csrf, person: ownerId, role: 'viewer', code: '000000' })).status).toBe(403);
    const self = await post(a.jar, '/panel/equipe/papel', { csrf_token: a.csrf, person: ownerId, role: 'admin', code: '000000' });
    expect(self.status).toBe(403);
    expect(self.text).toContain('A conta precisa de pelo menos um proprietário.');
    expect((await post(a.jar, '/panel/equipe/remover', { csrf_token: a.csrf, person: ownerId, code: '000000' })).status).toBe(403);

    const removed = await post(a.jar, '/panel/equipe/remover', { csrf_token: a.csrf, person: memberId, code: await freshCode(owner) });
    expect(removed.status).toBe(303);
    expect(await team(a.jar)).toEqual({ [owner.email]: 'owner' });
    // The removed person's open session ends at once, on every page: to the sign-in page, the session gone.
    const after = await get(b.jar, '/panel/equipe');
    expect([after.status, after.location]).toEqual([303, '/panel/entrar']);
    for (const path of ['/panel', '/panel/saques']) expect((await get(b.jar, path)).location, path).toBe('/panel/entrar');

    const audit = await get(a.jar, '/panel/auditoria');
    for (const action of ['team.invited', 'team.role_changed', 'team.removed']) expect(audit.text).toContain(`data-action="${action}"`);
  }, 240_000);

  it('two owners demoting each other at once: exactly one change lands and the account keeps an owner', async () => {
    const first = await enrolledPerson('owner');
    const email = `dono${Date.now()}@example.com`;
    const invite = (await admin('panel', 'invite', '--account', first.accountId, '--email', email, '--role', 'owner')).json as { invite_url: string };
    const second: Enrolled = { accountId: first.accountId, keys: first.keys, ...(await acceptInvite(invite.invite_url, email)) };
    const [a, b] = await Promise.all([signedIn(first), signedIn(second)]);
    const [firstId, secondId] = [await personIdOf(a.jar, first.email), await personIdOf(a.jar, second.email)];
    const [codeA, codeB] = await Promise.all([freshCode(first), freshCode(second)]);
    const outcomes = await Promise.all([
      post(a.jar, '/panel/equipe/papel', { csrf_token: a.csrf, person: secondId, role: 'viewer', code: codeA }),
      post(b.jar, '/panel/equipe/papel', { csrf_token: b.csrf, person: firstId, role: 'viewer', code: codeB }),
    ]);
    expect(outcomes.filter((o) => o.status === 303)).toHaveLength(1);
    const winner = outcomes[0]?.status === 303 ? a : b;
    expect(Object.values(await team(winner.jar)).filter((role) => role === 'owner')).toHaveLength(1);
  }, 180_000);
});
