import { describe, expect, it } from 'vitest';
import { INVITE_TTL_MS, inviteUsable, newInvite, normalizeEmail } from '../../../../shared/domain/panel/invite';

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
