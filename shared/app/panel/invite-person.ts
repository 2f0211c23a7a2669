import * as z from 'zod';
import { newInvite, normalizeEmail } from '../../domain/panel/invite';
import { inviteMail } from '../../domain/panel/mail';
import { isPanelRole, PANEL_ROLES, type PanelRole } from '../../domain/panel/roles';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { PanelEmails, PanelInvites } from '../../ports/panel';

export type InvitePorts = {
  /** Whether the account exists (and is not disabled). */
  accountActive: (accountId: string) => Promise<boolean>;
  invites: PanelInvites;
  emails: PanelEmails;
  /** A new link token (256 random bits, base64url) and its SHA-256: randomness comes in through the port. */
  newToken: () => { token: string; tokenHash: string };
  newMailId: () => string;
};

/**
 * `invitedBy`: the operator (`operator`) or the inviting person's id; a person's invite also carries their
 * e-mail and role (`inviter`): it stands only while they keep them (issue 43).
 */
export type InviteRequest = {
  accountId: string;
  email: string;
  role: string;
  invitedBy: string;
  inviter?: { email: string; role: PanelRole };
  publicBaseUrl: string;
  now: Date;
};

/** The answer the operator CLI prints (issue 27's names) and the team page shows. */
export type InviteAnswer = { account_id: string; email: string; role: PanelRole; invite_url: string; expires_at: string };

const emailSchema = z.email().max(254);

/** The invite link: the panel's acceptance page, the token in the path (never in a query string the edge logs). */
export function inviteUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/panel/convite/${token}`;
}

/**
 * Invites a person to an account's panel with a role: a link that works once, for 72 hours, mailed to
 * them (queued in the invite's own write) and answered once; it replaces the account's earlier invite
 * for the e-mail, whose link stops in the same write. An e-mail
 * already signing in to the panel is refused (409), an unknown or disabled account is a 404, and a
 * malformed e-mail or an unknown role a 422.
 */
export async function invitePerson(ports: InvitePorts, request: InviteRequest): Promise<InviteAnswer> {
  const email = normalizeEmail(request.email);
  const problems: Record<string, string[]> = {};
  if (!emailSchema.safeParse(email).success) problems.email = ['Must be an e-mail address'];
  if (!isPanelRole(request.role)) problems.role = [`Must be one of ${PANEL_ROLES.join(', ')}`];
  if (Object.keys(problems).length > 0 || !isPanelRole(request.role)) throw new ValidationError(problems);
  if (!(await ports.accountActive(request.accountId))) throw new NotFoundError('Account not found');
  if (await ports.emails.taken(email)) throw new ConflictError('This e-mail already signs in to the panel', 'panel_email_taken');
  const { token, tokenHash } = ports.newToken();
  const invite = newInvite({
    tokenHash,
    accountId: request.accountId,
    email,
    role: request.role,
    invitedBy: request.invitedBy,
    ...(request.inviter ? { inviterEmail: request.inviter.email, inviterRole: request.inviter.role } : {}),
    now: request.now,
  });
  const link = inviteUrl(request.publicBaseUrl, token);
  // The link is mailed to the person too (queued with the invite): the panel and the CLI also show it once.
  const mail = {
    ...inviteMail({ to: email, accountId: invite.accountId, role: invite.role, link, expiresAt: invite.expiresAt }),
    id: ports.newMailId(),
    createdAt: invite.createdAt,
  };
  // The account's earlier invite for the e-mail stops in the same write (issue 43).
  if ((await ports.invites.create(invite, mail)) === 'inviter_changed') {
    throw new ConflictError('Seu papel na equipe mudou enquanto isso: confira a equipe e tente de novo.', 'team_changed');
  }
  return { account_id: invite.accountId, email: invite.email, role: invite.role, invite_url: link, expires_at: invite.expiresAt };
}
