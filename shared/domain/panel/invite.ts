import { inviteRefusal, PANEL_ROLES, type PanelRole, roleAtLeast } from './roles';

/**
 * An invitation to the merchant panel (issue 27): a link that works once, for 72 hours. Only the
 * token's hash is stored; the link carries the token.
 */
export const INVITE_TTL_MS = 72 * 60 * 60 * 1000;

export type PanelInvite = {
  /** SHA-256 of the link's token (base64url): the item's key; the token itself is never stored. */
  tokenHash: string;
  accountId: string;
  /** Normalized (normalizeEmail). */
  email: string;
  role: PanelRole;
  /** The operator (`operator`) or the person who invited (their personId). */
  invitedBy: string;
  /** The inviting person's e-mail and role when they invited (absent for the operator's): acceptance checks they still hold it (issue 43). */
  inviterEmail?: string;
  inviterRole?: PanelRole;
  createdAt: string;
  expiresAt: string;
  /** The queued mail that carries its link (issue 44: the team page says when it was not delivered); absent on invites from before. */
  mailId?: string;
};

/** An e-mail as the panel keys it: trimmed and lower-cased (the domain is case-insensitive, and people type the local part in any case). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function newInvite(input: Omit<PanelInvite, 'createdAt' | 'expiresAt' | 'email'> & { email: string; now: Date }): PanelInvite {
  return {
    tokenHash: input.tokenHash,
    accountId: input.accountId,
    email: normalizeEmail(input.email),
    role: input.role,
    invitedBy: input.invitedBy,
    ...(input.inviterEmail !== undefined ? { inviterEmail: input.inviterEmail } : {}),
    ...(input.inviterRole !== undefined ? { inviterRole: input.inviterRole } : {}),
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + INVITE_TTL_MS).toISOString(),
  };
}

/** Whether the invite can still be accepted at `now` (its single use is its item's deletion). */
export function inviteUsable(invite: PanelInvite | undefined, now: Date): invite is PanelInvite {
  return invite !== undefined && now.getTime() < Date.parse(invite.expiresAt);
}

/** The operator's invites (the CLI) stand on their own; a person's stand only while that person does. */
export const OPERATOR = 'operator';

/**
 * The roles the inviting person must still hold for their invite to stand (issue 43): a role that may
 * invite the invite's role and is at least the one they invited with (removed, or lowered in any way:
 * the invite is over). Undefined: the operator's invite, which no person backs.
 */
export function rolesBackingInvite(invite: Pick<PanelInvite, 'invitedBy' | 'role' | 'inviterRole'>): readonly PanelRole[] | undefined {
  if (invite.invitedBy === OPERATOR) return undefined;
  const invitedAs = invite.inviterRole;
  if (invitedAs === undefined) return [];
  return PANEL_ROLES.filter((role) => roleAtLeast(role, invitedAs) && inviteRefusal({ personId: invite.invitedBy, role }, invite.role) === undefined);
}

/** Whether the person who sent an invite (as read now) still backs it: the same person, in the account, with a role that does. */
export function inviteBacked(
  invite: Pick<PanelInvite, 'accountId' | 'invitedBy' | 'role' | 'inviterRole'>,
  inviter: { personId: string; accountId: string; role: PanelRole } | undefined,
): boolean {
  const roles = rolesBackingInvite(invite);
  if (roles === undefined) return true;
  return inviter !== undefined && inviter.personId === invite.invitedBy && inviter.accountId === invite.accountId && roles.includes(inviter.role);
}
