import { describe, expect, it } from 'vitest';
import {
  inviteRefusal,
  isPanelRole,
  mayAct,
  PANEL_ROLES,
  roleAtLeast,
  roleLowered,
  STEP_UP_ACTIONS,
  teamChangeRefusal,
  type TeamMember,
} from '../../../../shared/domain/panel/roles';

const owner: TeamMember = { personId: 'p_owner', role: 'owner' };
const admin: TeamMember = { personId: 'p_admin', role: 'admin' };
const dev: TeamMember = { personId: 'p_dev', role: 'developer' };
const viewer: TeamMember = { personId: 'p_viewer', role: 'viewer' };

describe('panel roles (issue 27)', () => {
  it('lets every role read, and only the roles the issue names act', () => {
    for (const role of PANEL_ROLES) expect(mayAct(role, 'read'), role).toBe(true);
    expect(PANEL_ROLES.filter((role) => mayAct(role, 'keys.rotate'))).toEqual(['owner', 'admin', 'developer']);
    expect(PANEL_ROLES.filter((role) => mayAct(role, 'webhooks.manage'))).toEqual(['owner', 'admin', 'developer']);
    expect(PANEL_ROLES.filter((role) => mayAct(role, 'withdrawals.create'))).toEqual(['owner', 'admin', 'finance']);
    expect(PANEL_ROLES.filter((role) => mayAct(role, 'statement.export'))).toEqual(['owner', 'admin', 'finance']);
    expect(PANEL_ROLES.filter((role) => mayAct(role, 'team.manage'))).toEqual(['owner', 'admin']);
  });

  it('a viewer takes no action but reading', () => {
    for (const action of [
      'keys.rotate',
      'webhooks.manage',
      'checkout.manage',
      'withdrawals.create',
      'statement.export',
      'team.manage',
      'audit.read',
    ] as const) {
      expect(mayAct('viewer', action), action).toBe(false);
    }
  });

  it('asks a fresh code for keys, webhooks, signing secrets, withdrawals and team changes', () => {
    expect([...STEP_UP_ACTIONS].sort()).toEqual(['checkout.manage', 'keys.rotate', 'team.manage', 'webhooks.manage', 'withdrawals.create']);
  });

  it('knows its roles and nothing else', () => {
    expect(isPanelRole('finance')).toBe(true);
    expect(isPanelRole('root')).toBe(false);
    expect(isPanelRole(undefined)).toBe(false);
  });
});

describe('team changes', () => {
  it('never removes or demotes the last owner, whoever asks', () => {
    const team = [owner, admin, dev];
    expect(teamChangeRefusal(team, owner, { kind: 'remove', personId: 'p_owner' })).toMatch(/proprietário/);
    expect(teamChangeRefusal(team, owner, { kind: 'role', personId: 'p_owner', role: 'admin' })).toMatch(/pelo menos um proprietário/);
    expect(teamChangeRefusal(team, owner, { kind: 'role', personId: 'p_owner', role: 'owner' })).toBeUndefined();
  });

  it('lets an owner step down when another owner stays', () => {
    const second: TeamMember = { personId: 'p_owner2', role: 'owner' };
    expect(teamChangeRefusal([owner, second], owner, { kind: 'role', personId: 'p_owner', role: 'admin' })).toBeUndefined();
    expect(teamChangeRefusal([owner, second], second, { kind: 'remove', personId: 'p_owner' })).toBeUndefined();
  });

  it('an admin manages the team but neither touches nor makes owners', () => {
    const team = [owner, admin, dev];
    expect(teamChangeRefusal(team, admin, { kind: 'role', personId: 'p_dev', role: 'finance' })).toBeUndefined();
    expect(teamChangeRefusal(team, admin, { kind: 'remove', personId: 'p_dev' })).toBeUndefined();
    expect(teamChangeRefusal(team, admin, { kind: 'remove', personId: 'p_owner' })).toMatch(/Só um proprietário/);
    expect(teamChangeRefusal(team, admin, { kind: 'role', personId: 'p_dev', role: 'owner' })).toMatch(/Só um proprietário/);
  });

  it('a developer or a viewer changes nothing; an unknown person is refused', () => {
    const team = [owner, dev, viewer];
    expect(teamChangeRefusal(team, dev, { kind: 'remove', personId: 'p_viewer' })).toMatch(/não permite/);
    expect(teamChangeRefusal(team, viewer, { kind: 'role', personId: 'p_dev', role: 'viewer' })).toMatch(/não permite/);
    expect(teamChangeRefusal(team, owner, { kind: 'remove', personId: 'p_nobody' })).toMatch(/não encontrada/);
  });

  it('only an owner invites an owner; a viewer invites nobody', () => {
    expect(inviteRefusal(owner, 'owner')).toBeUndefined();
    expect(inviteRefusal(admin, 'owner')).toMatch(/Só um proprietário/);
    expect(inviteRefusal(admin, 'developer')).toBeUndefined();
    expect(inviteRefusal(viewer, 'viewer')).toMatch(/não permite/);
  });
});

describe('a role lowered (issue 43: the invites the person sent stop)', () => {
  it('orders the roles from owner down, and calls lowered any change to a later one', () => {
    expect(roleAtLeast('owner', 'admin')).toBe(true);
    expect(roleAtLeast('admin', 'admin')).toBe(true);
    expect(roleAtLeast('developer', 'admin')).toBe(false);
    expect(roleLowered('admin', 'developer')).toBe(true);
    expect(roleLowered('owner', 'admin')).toBe(true);
    expect(roleLowered('admin', 'owner')).toBe(false);
    expect(roleLowered('viewer', 'finance')).toBe(false);
    expect(roleLowered('admin', 'admin')).toBe(false);
  });
});
