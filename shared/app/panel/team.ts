import type { PanelAccessPorts } from './access-ports';
import { actingPerson, auditEntry, stepUp } from './acting';
import { type InviteAnswer, type InvitePorts, invitePerson } from './invite-person';
import { inviteUsable, OPERATOR, type PanelInvite } from '../../domain/panel/invite';
import { inviteRefusal, isPanelRole, mayAct, type PanelRole, ROLE_LABELS, roleLowered, teamChangeRefusal, type TeamChange } from '../../domain/panel/roles';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import { INVITE_WINDOW_MS, inviteScopes } from '../../domain/panel/sign-in-limits';
import { ConflictError, DomainError, NotFoundError, RateLimitedError, ValidationError } from '../../domain/errors';
import { releaseQuietly } from '../limits/attempt-slots';
import type { PanelTeam, TeamChangeOutcome } from '../../ports/panel';
import type { MailOutcomes, MailSuppressions } from '../../ports/mail';

/**
 * The merchant panel's team (issue 27): who is in the account's panel, and (owners and admins, with a
 * fresh authenticator code) inviting a person, changing a role, removing a person. The rules are
 * shared/domain/panel/roles.ts's; the last owner stays whatever runs at once (the adapter's owner count).
 */
export type PanelTeamPorts = PanelAccessPorts & {
  team: PanelTeam;
  invite: InvitePorts;
  publicBaseUrl: string;
  /** The addresses the panel no longer mails (issue 44): an invite to one was not delivered. */
  mailSuppressions: Pick<MailSuppressions, 'suppressed'>;
  /** How the invites' mails ended (issue 44: one SES refused, e.g. an unverified address in the SES sandbox, was not delivered). */
  mailOutcomes: MailOutcomes;
};

type Acting = { session: PanelSession; code: string; ip: string; now: Date };

/**
 * A pending invite as the team page lists it: to whom, which role, who sent it, until when (issue 43),
 * and whether its mail was not delivered (issue 44: its address hard-bounced or complained, so the
 * mail worker sends it nothing).
 */
export type PendingInviteRow = { invite: string; email: string; role: PanelRole; invitedBy: string; expiresAt: string; notDelivered: boolean };

export type TeamView = {
  members: Awaited<ReturnType<PanelTeam['members']>>;
  invites: PendingInviteRow[];
  mayManage: boolean;
  actorRole: PanelRole;
  selfId: string;
};

/** Who sent an invite, as the team page says it: the operator, a member's e-mail, or the e-mail of one no longer in the team. */
function senderOf(invite: PanelInvite, members: TeamView['members']): string {
  if (invite.invitedBy === OPERATOR) return 'Operador do gateway';
  const member = members.find((m) => m.personId === invite.invitedBy);
  return member ? member.email : `${invite.inviterEmail ?? invite.invitedBy} (fora da equipe)`;
}

export async function teamView(ports: PanelTeamPorts, session: PanelSession, now: Date): Promise<TeamView> {
  const person = await actingPerson(ports, session, 'read');
  const [members, invites] = await Promise.all([ports.team.members(session.accountId), ports.invite.invites.pending(session.accountId)]);
  const usable = invites.filter((invite) => inviteUsable(invite, now));
  const mailIds = usable.flatMap((invite) => (invite.mailId ? [invite.mailId] : []));
  const [suppressed, outcomes] = await Promise.all([ports.mailSuppressions.suppressed(usable.map((invite) => invite.email)), ports.mailOutcomes(mailIds)]);
  const undelivered = (invite: (typeof usable)[number]) => {
    const outcome = invite.mailId ? outcomes.get(invite.mailId) : undefined;
    return suppressed.has(invite.email) || outcome === 'suppressed' || outcome === 'rejected';
  };
  return {
    members,
    // The invites still usable: an identifier for the revoke form (the SHA-256 of the link's token, never the token).
    invites: usable.map((invite) => ({
      invite: invite.tokenHash,
      email: invite.email,
      role: invite.role,
      invitedBy: senderOf(invite, members),
      expiresAt: invite.expiresAt,
      notDelivered: undelivered(invite),
    })),
    mayManage: mayAct(person.role, 'team.manage'),
    actorRole: person.role,
    selfId: person.personId,
  };
}

const forbidden = (message: string) => new DomainError('forbidden', message, 'role_forbidden');

/**
 * An invite from the panel: the role rules first (403), a fresh code, then the operator's own invite use
 * case; audited. Whether the e-mail signs in already (409) is said only after a right code (issue 43: no
 * probing of other accounts' people). The invite stands while the actor keeps their role.
 */
export async function invitePersonInPanel(ports: PanelTeamPorts, input: Acting & { email: string; role: string }): Promise<InviteAnswer> {
  const actor = await actingPerson(ports, input.session, 'team.manage');
  if (!isPanelRole(input.role)) throw new ValidationError({ role: ['Escolha um papel da lista.'] });
  const refusal = inviteRefusal(actor, input.role);
  if (refusal) throw forbidden(refusal);
  await stepUp(ports, actor, input);
  // Each invite mails a stranger: the account's invites of the day take a slot first, in one conditional
  // write (issue 43), so N invites at once send at most INVITES_PER_ACCOUNT_PER_DAY; one refused later gives it back.
  const taken = await ports.attempts.take(inviteScopes(actor.accountId), ports.newId('att'), input.now);
  if (!taken.admitted) throw new RateLimitedError(taken.retryAfterSeconds ?? Math.ceil(INVITE_WINDOW_MS / 1000));
  let answer: InviteAnswer;
  try {
    answer = await invitePerson(ports.invite, {
      accountId: actor.accountId,
      email: input.email,
      role: input.role,
      invitedBy: actor.personId,
      inviter: { email: actor.email, role: actor.role },
      publicBaseUrl: ports.publicBaseUrl,
      now: input.now,
    });
  } catch (err) {
    await releaseQuietly(ports.attempts, taken.ticket);
    throw err;
  }
  await ports.audit.record(auditEntry(ports, actor, 'team.invited', input.ip, input.now, `${answer.email} como ${ROLE_LABELS[answer.role]}`));
  return answer;
}

/** The member a change names, read from the table itself (the list may lag): another account's or unknown → 404. */
async function memberOf(ports: PanelTeamPorts, actor: PanelPerson, personId: string): Promise<PanelPerson> {
  const listed = (await ports.team.members(actor.accountId)).find((m) => m.personId === personId);
  const person = listed ? await ports.people.byEmail(listed.email) : undefined;
  if (!person || person.accountId !== actor.accountId || person.personId !== personId) throw new NotFoundError('Pessoa não encontrada.');
  return person;
}

async function changeTeam(ports: PanelTeamPorts, input: Acting & { personId: string }, change: TeamChange) {
  const actor = await actingPerson(ports, input.session, 'team.manage');
  const target = await memberOf(ports, actor, input.personId);
  const team = (await ports.team.members(actor.accountId)).map(({ personId, role }) => ({ personId, role }));
  const withTarget = team.some((m) => m.personId === target.personId) ? team : [...team, { personId: target.personId, role: target.role }];
  const refusal = teamChangeRefusal(withTarget, actor, change);
  if (refusal) throw forbidden(refusal);
  await stepUp(ports, actor, input);
  return { actor, target };
}

function settled(outcome: TeamChangeOutcome): void {
  if (outcome === 'moved' || outcome === 'invites_moved')
    throw new ConflictError('Esta pessoa mudou enquanto isso: confira a equipe e tente de novo.', 'team_changed');
  if (outcome === 'last_owner') throw forbidden('A conta precisa de pelo menos um proprietário.');
}

/** How many of a person's invites one change revokes in its transaction (DynamoDB's 100 items; acceptance checks the inviter anyway). */
const REVOKED_PER_CHANGE = 40;
/** How many times a change reads the person's invites again when one was used or replaced meanwhile. */
const REVOKE_ATTEMPTS = 3;

/**
 * A team change that takes power from `target` (removed, or a lower role), with the invites they sent
 * revoked in its transaction (issue 43), named in its audit entry. An invite used or replaced meanwhile:
 * read them again. Acceptance also checks the inviter (./enroll.ts), so one that slips past still fails.
 */
async function withTheirInvitesRevoked(
  ports: PanelTeamPorts,
  target: PanelPerson,
  detail: string,
  write: (revoke: readonly PanelInvite[], detail: string) => Promise<TeamChangeOutcome>,
): Promise<TeamChangeOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const sent = (await ports.invite.invites.pending(target.accountId)).filter((invite) => invite.invitedBy === target.personId).slice(0, REVOKED_PER_CHANGE);
    const named = sent.length > 0 ? `${detail}; convites revogados: ${sent.map((invite) => invite.email).join(', ')}` : detail;
    const outcome = await write(sent, named);
    if (outcome !== 'invites_moved' || attempt >= REVOKE_ATTEMPTS) return outcome;
  }
}

export async function changeRoleInPanel(ports: PanelTeamPorts, input: Acting & { personId: string; role: string }): Promise<void> {
  if (!isPanelRole(input.role)) throw new ValidationError({ role: ['Escolha um papel da lista.'] });
  const role = input.role;
  const { actor, target } = await changeTeam(ports, input, { kind: 'role', personId: input.personId, role });
  if (target.role === role) return;
  const detail = `${target.email}: ${ROLE_LABELS[target.role]} → ${ROLE_LABELS[role]}`;
  const audited = (text: string) => auditEntry(ports, actor, 'team.role_changed', input.ip, input.now, text);
  settled(
    roleLowered(target.role, role)
      ? await withTheirInvitesRevoked(ports, target, detail, (revoke, text) => ports.team.changeRole(target, role, audited(text), revoke))
      : await ports.team.changeRole(target, role, audited(detail), []),
  );
}

export async function removePersonInPanel(ports: PanelTeamPorts, input: Acting & { personId: string }): Promise<void> {
  const { actor, target } = await changeTeam(ports, input, { kind: 'remove', personId: input.personId });
  settled(
    await withTheirInvitesRevoked(ports, target, `${target.email} (${ROLE_LABELS[target.role]})`, (revoke, text) =>
      ports.team.remove(target, auditEntry(ports, actor, 'team.removed', input.ip, input.now, text), revoke),
    ),
  );
}

/**
 * Revokes a pending invite from the team page (issue 43): owners and admins, and only an owner an
 * owner's invite (as for inviting), with a fresh code; its link stops with the audit entry, in one
 * transaction. `invite` is the listed invite's identifier (the SHA-256 of its token).
 */
export async function revokeInviteInPanel(ports: PanelTeamPorts, input: Acting & { invite: string }): Promise<void> {
  const actor = await actingPerson(ports, input.session, 'team.manage');
  const invite = (await ports.invite.invites.pending(actor.accountId)).find((pending) => pending.tokenHash === input.invite);
  if (!invite) throw new NotFoundError('Convite não encontrado: ele já foi usado, substituído ou revogado.');
  const refusal = inviteRefusal(actor, invite.role);
  if (refusal) throw forbidden(refusal);
  await stepUp(ports, actor, input);
  const audit = auditEntry(ports, actor, 'team.invite_revoked', input.ip, input.now, `${invite.email} (${ROLE_LABELS[invite.role]})`);
  if (!(await ports.invite.invites.revoke(invite, audit))) {
    throw new ConflictError('Este convite mudou enquanto isso (usado, substituído ou revogado): confira a equipe.', 'invite_changed');
  }
}
