import { describe, expect, it } from 'vitest';
import { type InvitePorts, invitePerson } from '../../../../shared/app/panel/invite-person';
import type { PanelInvite } from '../../../../shared/domain/panel/invite';
import type { OutgoingMail } from '../../../../shared/domain/panel/mail';
import { ConflictError, NotFoundError, ValidationError } from '../../../../shared/domain/errors';

const now = new Date('2026-11-28T12:00:00.000Z');

function ports(options: { active?: boolean; taken?: string[]; inviterChanged?: boolean } = {}) {
  const stored: PanelInvite[] = [];
  const mailed: OutgoingMail[] = [];
  let n = 0;
  const value: InvitePorts = {
    accountActive: async (accountId) => (options.active ?? true) && accountId === 'acct_1',
    invites: {
      create: async (invite, mail) => {
        if (options.inviterChanged) return 'inviter_changed';
        stored.push(invite);
        mailed.push(mail);
        return 'created';
      },
      get: async (hash) => stored.find((invite) => invite.tokenHash === hash),
      pending: async (accountId) => stored.filter((invite) => invite.accountId === accountId),
      revoke: async () => false,
    },
    emails: { taken: async (email) => (options.taken ?? []).includes(email) },
    newToken: () => {
      n += 1;
      return { token: `token${n}`, tokenHash: `hash${n}` };
    },
    newMailId: () => `mail_${n}`,
  };
  return { value, stored, mailed };
}

const request = { accountId: 'acct_1', email: 'Ana@Example.com', role: 'admin', invitedBy: 'operator', publicBaseUrl: 'https://pay.example/', now };

describe('invite a person to the panel (issue 27)', () => {
  it('stores the invite under its token hash and answers the link with the token, for 72 hours', async () => {
    const { value, stored, mailed } = ports();
    const answer = await invitePerson(value, request);
    expect(answer).toEqual({
      account_id: 'acct_1',
      email: 'ana@example.com',
      role: 'admin',
      invite_url: 'https://pay.example/panel/convite/token1',
      expires_at: '2026-12-01T12:00:00.000Z',
    });
    expect(stored).toEqual([
      {
        tokenHash: 'hash1',
        accountId: 'acct_1',
        email: 'ana@example.com',
        role: 'admin',
        invitedBy: 'operator',
        createdAt: now.toISOString(),
        expiresAt: '2026-12-01T12:00:00.000Z',
      },
    ]);
    // The link is mailed to the person with the invite (one write): pt-BR, the role's name, the link, until when.
    expect(mailed).toHaveLength(1);
    expect(mailed[0]).toMatchObject({
      id: 'mail_1',
      kind: 'invite',
      to: 'ana@example.com',
      subject: 'Convite para o painel do gateway de pagamentos',
      createdAt: now.toISOString(),
    });
    expect(mailed[0]?.text).toContain('https://pay.example/panel/convite/token1');
    expect(mailed[0]?.text).toContain('Administrador');
    expect(mailed[0]?.text).toContain('01/12/2026 09:00');
  });

  it('refuses a malformed e-mail and an unknown role together (422), storing nothing', async () => {
    const { value, stored } = ports();
    const err = await invitePerson(value, { ...request, email: 'ana', role: 'root' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fields).toEqual({
      email: ['Must be an e-mail address'],
      role: ['Must be one of owner, admin, developer, finance, viewer'],
    });
    expect(stored).toEqual([]);
  });

  it('refuses an unknown or disabled account (404) and an e-mail that already signs in (409)', async () => {
    await expect(invitePerson(ports().value, { ...request, accountId: 'acct_2' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(invitePerson(ports({ active: false }).value, request)).rejects.toBeInstanceOf(NotFoundError);
    const taken = ports({ taken: ['ana@example.com'] });
    await expect(invitePerson(taken.value, request)).rejects.toBeInstanceOf(ConflictError);
    expect(taken.stored).toEqual([]);
  });

  it('carries the inviting person’s e-mail and role (their invite stands while they keep them), and stores nothing when they changed meanwhile (409)', async () => {
    const { value, stored } = ports();
    await invitePerson(value, { ...request, invitedBy: 'per_1', inviter: { email: 'dona@example.com', role: 'owner' } });
    expect(stored[0]).toMatchObject({ invitedBy: 'per_1', inviterEmail: 'dona@example.com', inviterRole: 'owner' });
    const changed = ports({ inviterChanged: true });
    const err = await invitePerson(changed.value, { ...request, invitedBy: 'per_1', inviter: { email: 'dona@example.com', role: 'admin' } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).code).toBe('team_changed');
    expect(changed.stored).toEqual([]);
  });
});
