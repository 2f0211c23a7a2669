import type { PanelRole } from './roles';

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
  /** The operator (`operator`) or the person who invited. */
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
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
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + INVITE_TTL_MS).toISOString(),
  };
}

/** Whether the invite can still be accepted at `now` (its single use is its item's deletion). */
export function inviteUsable(invite: PanelInvite | undefined, now: Date): invite is PanelInvite {
  return invite !== undefined && now.getTime() < Date.parse(invite.expiresAt);
}
