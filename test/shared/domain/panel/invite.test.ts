import { describe, expect, it } from 'vitest';
import { INVITE_TTL_MS, inviteBacked, inviteUsable, newInvite, normalizeEmail, rolesBackingInvite } from '../../../../shared/domain/panel/invite';

const t0 = new Date('2026-11-28T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('panel invites (issue 27)', () => {
  it('works for 72 hours from its creation, not a millisecond more', () => {
    const invite = newInvite({ tokenHash: 'h', accountId: 'acct_1', email: '  Ana@Example.COM ', role: 'owner', invitedBy: 'operator', now: t0 });
    expect(invite.email).toBe('ana@example.com');
    expect(invite.expiresAt).toBe(at(INVITE_TTL_MS).toISOString());
    expect(INVITE_TTL_MS).toBe(72 * 3600 * 1000);
    expect(inviteUsable(invite, at(INVITE_TTL_MS - 1))).toBe(true);
    expect(inviteUsable(invite, at(INVITE_TTL_MS))).toBe(false);
    expect(inviteUsable(undefined, t0)).toBe(false);
  });

  it('normalizes e-mails by trimming and lower-casing', () => {
    expect(normalizeEmail(' Ana.Silva@Loja.COM.br\t')).toBe('ana.silva@loja.com.br');
  });
});

describe('an invite stands while its sender does (issue 43)', () => {
  const byAdmin = newInvite({
    tokenHash: 'h',
    accountId: 'acct_1',
    email: 'bia@example.com',
    role: 'finance',
    invitedBy: 'per_a',
    inviterEmail: 'adm@example.com',
    inviterRole: 'admin',
    now: t0,
  });
  const admin = { personId: 'per_a', accountId: 'acct_1', role: 'admin' as const };

  it('the operator’s invites need nobody; a person’s need them still in the account with a role as strong and allowed to invite it', () => {
    expect(rolesBackingInvite({ invitedBy: 'operator', role: 'owner' })).toBeUndefined();
    expect(inviteBacked({ ...byAdmin, invitedBy: 'operator' }, undefined)).toBe(true);
    expect(rolesBackingInvite(byAdmin)).toEqual(['owner', 'admin']);
    expect(rolesBackingInvite({ invitedBy: 'per_o', role: 'owner', inviterRole: 'owner' })).toEqual(['owner']);
    expect(rolesBackingInvite({ invitedBy: 'per_o', role: 'viewer', inviterRole: 'owner' })).toEqual(['owner']);
    expect(inviteBacked(byAdmin, admin)).toBe(true);
    expect(inviteBacked(byAdmin, { ...admin, role: 'owner' })).toBe(true);
  });

  it('is over once the sender is removed, lowered, replaced by another person under the e-mail, or elsewhere; and when it names no sender role', () => {
    expect(inviteBacked(byAdmin, undefined)).toBe(false);
    for (const role of ['developer', 'finance', 'viewer'] as const) expect(inviteBacked(byAdmin, { ...admin, role })).toBe(false);
    expect(inviteBacked(byAdmin, { ...admin, personId: 'per_b' })).toBe(false);
    expect(inviteBacked(byAdmin, { ...admin, accountId: 'acct_2' })).toBe(false);
    const ownerInvite = { ...byAdmin, role: 'owner' as const, inviterRole: 'owner' as const };
    expect(inviteBacked(ownerInvite, { ...admin, role: 'admin' })).toBe(false);
    const { inviterRole: _dropped, ...legacy } = byAdmin;
    expect(rolesBackingInvite(legacy)).toEqual([]);
    expect(inviteBacked(legacy, admin)).toBe(false);
  });
});
