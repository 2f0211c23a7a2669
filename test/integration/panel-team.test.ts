import { describe, expect, it } from 'vitest';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { admin } from '../support/api';
import { acceptInvite, type Enrolled, enrolledPerson, freshCode, get, hidden, Jar, post, signIn } from '../support/panel';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
const EMAIL_TAKEN = 'Este e-mail já entra no painel.';

/** The team page's pending invites: e-mail → { role, who sent it, the revoke form's identifier }. */
async function pendingInvites(jar: Jar): Promise<Record<string, { role: string; by: string; id: string }>> {
  const page = await get(jar, '/panel/equipe');
  expect(page.status).toBe(200);
  const rows = page.text.matchAll(/<tr data-invite="([^"]+)" data-role="(\w+)"><td>([^<]+)<\/td><td>[^<]*<\/td><td data-invited-by>([^<]+)<\/td>/g);
  return Object.fromEntries([...rows].map((m) => [m[3], { role: m[2] ?? '', by: m[4] ?? '', id: m[1] ?? '' }]));
}

const linkIn = (page: { text: string }) => /id="invite-url">([^<]+)</.exec(page.text)?.[1] ?? '';
const opens = async (link: string) => (await get(new Jar(), new URL(link).pathname)).status;

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
    // The same e-mail again: a wrong code says nothing of the e-mail (401, issue 43); a right one then: 409, nothing sent.
    const wrong = await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email, role: 'viewer', code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(escaped(WRONG_CODE));
    expect(wrong.text).not.toContain(escaped(EMAIL_TAKEN));
    const taken = await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email, role: 'viewer', code: await freshCode(owner) });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain(escaped(EMAIL_TAKEN));

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

  it('lists the pending invites with who sent them; a new invite for the e-mail replaces the earlier link; a revoke with a fresh code stops one (issue 43)', async () => {
    const owner = await enrolledPerson('owner');
    const a = await signedIn(owner);
    const [mine, operators] = [`minha${Date.now()}@example.com`, `operador${Date.now()}@example.com`];
    const first = await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email: mine, role: 'developer', code: await freshCode(owner) });
    expect(first.status).toBe(200);
    const firstLink = linkIn(first);
    const byOperator = (await admin('panel', 'invite', '--account', owner.accountId, '--email', operators, '--role', 'viewer')).json as { invite_url: string };
    const listed = await pendingInvites(a.jar);
    expect(listed[mine]).toMatchObject({ role: 'developer', by: owner.email });
    expect(listed[operators]).toMatchObject({ role: 'viewer', by: 'Operador do gateway' });

    // Again for the same e-mail: the earlier link stops in the same write, the new one works; one row.
    const second = (await admin('panel', 'invite', '--account', owner.accountId, '--email', mine, '--role', 'finance')).json as { invite_url: string };
    expect(await opens(firstLink)).toBe(404);
    expect(await opens(second.invite_url)).toBe(200);
    const replaced = await pendingInvites(a.jar);
    expect(replaced[mine]).toMatchObject({ role: 'finance', by: 'Operador do gateway' });
    expect(replaced[mine]?.id).not.toBe(listed[mine]?.id);

    // A revoke: a wrong code changes nothing; a fresh one stops the link at once, audited.
    const form = { csrf_token: a.csrf, invite: replaced[mine]?.id ?? '' };
    const wrong = await post(a.jar, '/panel/equipe/remover', { ...form, code: '000000' });
    expect(wrong.status).toBe(401);
    expect(await opens(second.invite_url)).toBe(200);
    const revoked = await post(a.jar, '/panel/equipe/remover', { ...form, code: await freshCode(owner) });
    expect([revoked.status, revoked.location]).toEqual([303, '/panel/equipe']);
    expect(Object.keys(await pendingInvites(a.jar))).toEqual([operators]);
    expect(await opens(second.invite_url)).toBe(404);
    await expect(acceptInvite(second.invite_url, mine)).rejects.toThrow(/invite page 404/);
    expect(await opens(byOperator.invite_url)).toBe(200);
    // Unknown now: 404, before any code is read.
    expect((await post(a.jar, '/panel/equipe/remover', { ...form, code: '000000' })).status).toBe(404);
    expect((await get(a.jar, '/panel/auditoria')).text).toContain('data-action="team.invite_revoked"');
  }, 180_000);

  it('removing an admin, or giving one a lower role, revokes the invites they sent (issue 43)', async () => {
    const owner = await enrolledPerson('owner');
    const admins = await Promise.all(
      ['um', 'dois'].map(async (n) => {
        const email = `admin${n}${Date.now()}@example.com`;
        const invite = (await admin('panel', 'invite', '--account', owner.accountId, '--email', email, '--role', 'admin')).json as { invite_url: string };
        return { accountId: owner.accountId, keys: owner.keys, ...(await acceptInvite(invite.invite_url, email)) } satisfies Enrolled;
      }),
    );
    const [removedAdmin, loweredAdmin] = admins as [Enrolled, Enrolled];
    const [a, ...sessions] = await Promise.all([signedIn(owner), ...admins.map(signedIn)]);
    const links = await Promise.all(
      admins.map(async (person, i) => {
        const session = sessions[i];
        if (!session) throw new Error('no session');
        const sent = await post(session.jar, '/panel/equipe', {
          csrf_token: session.csrf,
          email: `convidado${i}${Date.now()}@example.com`,
          role: 'viewer',
          code: await freshCode(person),
        });
        expect(sent.status).toBe(200);
        return linkIn(sent);
      }),
    );
    for (const link of links) expect(await opens(link)).toBe(200);
    expect(
      Object.values(await pendingInvites(a.jar))
        .map((i) => i.by)
        .sort(),
    ).toEqual(admins.map((p) => p.email).sort());

    const removed = await post(a.jar, '/panel/equipe/remover', {
      csrf_token: a.csrf,
      person: await personIdOf(a.jar, removedAdmin.email),
      code: await freshCode(owner),
    });
    expect(removed.status).toBe(303);
    expect(await opens(links[0] ?? '')).toBe(404);
    expect(await opens(links[1] ?? '')).toBe(200);
    const lowered = await post(a.jar, '/panel/equipe/papel', {
      csrf_token: a.csrf,
      person: await personIdOf(a.jar, loweredAdmin.email),
      role: 'developer',
      code: await freshCode(owner),
    });
    expect(lowered.status).toBe(303);
    expect(await opens(links[1] ?? '')).toBe(404);
    expect(await pendingInvites(a.jar)).toEqual({});
    const audit = await get(a.jar, '/panel/auditoria');
    expect(audit.text.match(/convites revogados/g)).toHaveLength(2);
  }, 180_000);

  it('says whether an e-mail signs in already only after a right code: a wrong one answers as a wrong code, even for another account’s person (issue 43)', async () => {
    const [owner, elsewhere] = await Promise.all([enrolledPerson('owner'), enrolledPerson('viewer')]);
    const a = await signedIn(owner);
    const probe = await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email: elsewhere.email, role: 'viewer', code: '000000' });
    expect(probe.status).toBe(401);
    expect(probe.text).toContain(escaped(WRONG_CODE));
    expect(probe.text).not.toContain(escaped(EMAIL_TAKEN));
    const nobody = await post(a.jar, '/panel/equipe', { csrf_token: a.csrf, email: `ninguem${Date.now()}@example.com`, role: 'viewer', code: '000000' });
    expect([nobody.status, nobody.text.includes(escaped(WRONG_CODE))]).toEqual([401, true]);
  }, 120_000);
});
