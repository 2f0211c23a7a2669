import { beforeAll, describe, expect, it } from 'vitest';
import { acceptInvite } from '../../shared/app/panel/enroll';
import { type InviteAnswer, invitePerson } from '../../shared/app/panel/invite-person';
import type { PasswordSettingPorts } from '../../shared/app/panel/access-ports';
import { invitePersonInPanel, type PanelTeamPorts, removePersonInPanel } from '../../shared/app/panel/team';
import { INVITES_PER_ACCOUNT_PER_DAY } from '../../shared/domain/panel/sign-in-limits';
import type { PanelPerson } from '../../shared/domain/panel/person';
import type { PanelRole } from '../../shared/domain/panel/roles';
import type { PanelSession } from '../../shared/domain/panel/session';
import { NotFoundError, RateLimitedError } from '../../shared/domain/errors';
import { getRuntime } from '../../shared/wiring/runtime';
import { panelTeamPorts } from '../../shared/wiring/panel-settings';
import { newAccount, useLocalStackEnvironment } from '../support/api';

/**
 * Issue 43, finding 5: an invite stands only while the person who sent it does. The use cases and the
 * table's transactions run here in-process against the local stack; only the authenticator is faked
 * (any code "ok" matches a step later than every one before), so that many step-ups run at once
 * without waiting out 30-second steps, and the password hashing (not what is under test).
 */
let step = 0;
let ports: PanelTeamPorts & PasswordSettingPorts;

beforeAll(async () => {
  useLocalStackEnvironment();
  const base = await panelTeamPorts(getRuntime());
  ports = {
    ...base,
    totp: { ...base.totp, match: (_secret, code) => (code === 'ok' ? (step += 1) : undefined) },
    passwords: { ...base.passwords, hash: async () => 'scrypt$not-under-test' },
    accountNames: { nameOf: async () => 'Loja' },
  };
});

const unique = (label: string) => `${label}${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
const tokenOf = (answer: InviteAnswer) => new URL(answer.invite_url).pathname.split('/').pop() ?? '';

/** An invite accepted as the enrollment page's form does (the secret sealed to the invite, a code of it). */
function accept(answer: InviteAnswer): Promise<{ email: string }> {
  const token = tokenOf(answer);
  const sealedSecret = ports.sealing.seal(ports.totp.newSecret(), `enroll:${ports.tokens.hash(token)}`);
  const password = 'uma frase longa e boa para o teste';
  return acceptInvite(ports, { token, password, confirmation: password, code: 'ok', sealedSecret, ip: '127.0.0.1', now: new Date() });
}

/** An invite to the account, from the operator or a person (their e-mail and role as they invite). */
function invite(accountId: string, email: string, role: PanelRole, by?: PanelPerson): Promise<InviteAnswer> {
  return invitePerson(ports.invite, {
    accountId,
    email,
    role,
    invitedBy: by?.personId ?? 'operator',
    ...(by ? { inviter: { email: by.email, role: by.role } } : {}),
    publicBaseUrl: 'https://pay.example',
    now: new Date(),
  });
}

async function member(accountId: string, role: PanelRole, by?: PanelPerson): Promise<PanelPerson> {
  const email = unique(role);
  await accept(await invite(accountId, email, role, by));
  const person = await ports.people.byEmail(email);
  if (!person) throw new Error('not enrolled');
  return person;
}

/** A signed-in session of the person, as the signed-in pages hand it to the use cases. */
function sessionOf(person: PanelPerson): PanelSession {
  const at = new Date().toISOString();
  return {
    sessionHash: `s${Math.random()}`,
    personId: person.personId,
    accountId: person.accountId,
    email: person.email,
    stage: 'active',
    createdAt: at,
    lastSeenAt: at,
    ip: '127.0.0.1',
    userAgent: 'test',
  };
}

const audit = (person: PanelPerson, action: string) => ({
  accountId: person.accountId,
  at: new Date().toISOString(),
  entryId: `aud_${Math.random().toString(36).slice(2)}`,
  personId: person.personId,
  email: person.email,
  action,
  ip: '127.0.0.1',
});

describe('an invite stands while its sender does (issue 43)', () => {
  it('acceptance checks the sender in its own transaction: removed or lowered without their invites revoked, the invite is refused; kept, it works', async () => {
    const { account_id: accountId } = await newAccount();
    const owner = await member(accountId, 'owner');
    const [removed, lowered, kept] = await Promise.all([
      member(accountId, 'admin', owner),
      member(accountId, 'admin', owner),
      member(accountId, 'admin', owner),
    ]);
    const [fromRemoved, fromLowered, fromKept] = await Promise.all([
      invite(accountId, unique('a'), 'finance', removed),
      invite(accountId, unique('b'), 'finance', lowered),
      invite(accountId, unique('c'), 'finance', kept),
    ]);
    // The changes as if their read of the invites had missed these (nothing revoked with them): only the sender check is left.
    expect(await ports.team.remove(removed, audit(owner, 'team.removed'), [])).toBe('done');
    expect(await ports.team.changeRole(lowered, 'developer', audit(owner, 'team.role_changed'), [])).toBe('done');

    for (const answer of [fromRemoved, fromLowered]) {
      const tokenHash = ports.tokens.hash(tokenOf(answer));
      const stored = await ports.invites.get(tokenHash);
      expect(stored?.email).toBe(answer.email);
      // The use case says the link is gone …
      await expect(accept(answer)).rejects.toBeInstanceOf(NotFoundError);
      // … and the enrollment's transaction refuses it by itself (a sender removed between the page's read and the write).
      if (!stored) throw new Error('no invite');
      const at = new Date().toISOString();
      const person: PanelPerson = {
        personId: `per_${Math.random()}`,
        accountId,
        email: answer.email,
        role: 'finance',
        passwordHash: 'x',
        totpSecretSealed: 'x',
        createdAt: at,
        passwordChangedAt: at,
      };
      expect(await ports.people.enroll(stored, person, audit(owner, 'panel.enrolled'), new Date())).toBe('invite_gone');
      expect(await ports.people.byEmail(answer.email)).toBeUndefined();
    }
    await expect(accept(fromKept)).resolves.toEqual({ email: fromKept.email });
  }, 60_000);

  it('a removal and the acceptance of the removed admin’s invite, fired together 10 times: exactly one wins each time, and the removal revokes the rest', async () => {
    const { account_id: accountId } = await newAccount();
    const owner = await member(accountId, 'owner');
    const outcomes: string[] = [];
    for (let pair = 0; pair < 10; pair += 1) {
      const admin = await member(accountId, 'admin', owner);
      const [raced, spare] = await Promise.all([invite(accountId, unique('raced'), 'admin', admin), invite(accountId, unique('spare'), 'viewer', admin)]);
      const [removal, acceptance] = await Promise.allSettled([
        removePersonInPanel(ports, { session: sessionOf(owner), personId: admin.personId, code: 'ok', ip: '127.0.0.1', now: new Date() }),
        accept(raced),
      ]);
      expect(removal.status).toBe('fulfilled');
      expect(await ports.people.byEmail(admin.email)).toBeUndefined();
      const entry = (await ports.audit.latest(accountId, 50)).find((e) => e.action === 'team.removed' && e.detail?.startsWith(admin.email));
      const revokedWithRemoval = entry?.detail?.includes(raced.email) ?? false;
      const enrolled = await ports.people.byEmail(raced.email);
      // Either the invite was used before the removal (a person, the removal not naming it), or the removal revoked it (no person, refused as gone).
      if (acceptance.status === 'fulfilled') {
        expect(enrolled?.role).toBe('admin');
        expect(revokedWithRemoval).toBe(false);
        outcomes.push('accepted first');
      } else {
        expect(acceptance.reason).toBeInstanceOf(NotFoundError);
        expect(enrolled).toBeUndefined();
        expect(revokedWithRemoval).toBe(true);
        outcomes.push('revoked first');
      }
      // The admin's other invite stopped with the removal, whichever won the race.
      expect(entry?.detail).toContain(spare.email);
      expect(await ports.invites.get(ports.tokens.hash(tokenOf(spare)))).toBeUndefined();
      await expect(accept(spare)).rejects.toBeInstanceOf(NotFoundError);
      expect((await ports.invites.pending(accountId)).filter((i) => i.invitedBy === admin.personId)).toEqual([]);
    }
    expect(outcomes).toHaveLength(10);
  }, 120_000);

  it("25 invites from one owner at once (issue 43: every limit one conditional write): at most the day's limit are made, the rest refused 429", async () => {
    const { account_id: accountId } = await newAccount();
    const owner = await member(accountId, 'owner');
    // Each from its own session (a step-up counts its session's own attempts), every code right and usable (the authenticator is not under test here): only the invites' own limit refuses.
    const anyCode = { ...ports, people: { ...ports.people, useTotpStep: async () => true } };
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, () =>
        invitePersonInPanel(anyCode, { session: sessionOf(owner), email: unique('burst'), role: 'viewer', code: 'ok', ip: '127.0.0.1', now: new Date() }),
      ),
    );
    const made = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof RateLimitedError).length;
    expect(made).toBe(INVITES_PER_ACCOUNT_PER_DAY);
    expect(refused).toBe(25 - INVITES_PER_ACCOUNT_PER_DAY);
    const pending = (await ports.invites.pending(accountId)).filter((i) => i.email.startsWith('burst'));
    expect(pending).toHaveLength(made);
  }, 120_000);
});
