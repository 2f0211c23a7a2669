import type { PanelAccessPorts } from './access-ports';
import { actingPerson, auditEntry, stepUp } from './acting';
import { type InviteAnswer, type InvitePorts, invitePerson } from './invite-person';
import { normalizeEmail } from '../../domain/panel/invite';
import { inviteRefusal, isPanelRole, mayAct, type PanelRole, ROLE_LABELS, teamChangeRefusal, type TeamChange } from '../../domain/panel/roles';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../../errors';
import type { PanelTeam } from '../../ports/panel';

/**
 * The merchant panel's team (issue 27): who is in the account's panel, and (owners and admins, with a
 * fresh authenticator code) inviting a person, changing a role, removing a person. The rules are
 * shared/domain/panel/roles.ts's; the last owner stays whatever runs at once (the adapter's owner count).
 */
export type PanelTeamPorts = PanelAccessPorts & { team: PanelTeam; invite: InvitePorts; publicBaseUrl: string };

type Acting = { session: PanelSession; code: string; ip: string; now: Date };

export type TeamView = { members: Awaited<ReturnType<PanelTeam['members']>>; mayManage: boolean; actorRole: PanelRole; selfId: string };

export async function teamView(ports: PanelTeamPorts, session: PanelSession): Promise<TeamView> {
  const person = await actingPerson(ports, session, 'read');
  return {
    members: await ports.team.members(session.accountId),
    mayManage: mayAct(person.role, 'team.manage'),
    actorRole: person.role,
    selfId: person.personId,
  };
}

const forbidden = (message: string) => new DomainError('forbidden', message, 'role_forbidden');

/** An invite from the panel: the role rules first (403), a fresh code, then the operator's own invite use case; audited. */
export async function invitePersonInPanel(ports: PanelTeamPorts, input: Acting & { email: string; role: string }): Promise<InviteAnswer> {
  const actor = await actingPerson(ports, input.session, 'team.manage');
  if (!isPanelRole(input.role)) throw new ValidationError({ role: ['Escolha um papel da lista.'] });
  const refusal = inviteRefusal(actor, input.role);
  if (refusal) throw forbidden(refusal);
  // An e-mail that signs in already is refused before a code is spent (the invite use case checks again).
  if (await ports.invite.emails.taken(normalizeEmail(input.email))) throw new ConflictError('This e-mail already signs in to the panel', 'panel_email_taken');
  await stepUp(ports, actor, input);
  const answer = await invitePerson(ports.invite, {
    accountId: actor.accountId,
    email: input.email,
    role: input.role,
    invitedBy: actor.personId,
    publicBaseUrl: ports.publicBaseUrl,
    now: input.now,
  });
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

function settled(outcome: Awaited<ReturnType<PanelTeam['remove']>>): void {
  if (outcome === 'moved') throw new ConflictError('Esta pessoa mudou enquanto isso: confira a equipe e tente de novo.', 'team_changed');
  if (outcome === 'last_owner') throw forbidden('A conta precisa de pelo menos um proprietário.');
}

export async function changeRoleInPanel(ports: PanelTeamPorts, input: Acting & { personId: string; role: string }): Promise<void> {
  if (!isPanelRole(input.role)) throw new ValidationError({ role: ['Escolha um papel da lista.'] });
  const role = input.role;
  const { actor, target } = await changeTeam(ports, input, { kind: 'role', personId: input.personId, role });
  if (target.role === role) return;
  settled(
    await ports.team.changeRole(
      target,
      role,
      auditEntry(ports, actor, 'team.role_changed', input.ip, input.now, `${target.email}: ${ROLE_LABELS[target.role]} → ${ROLE_LABELS[role]}`),
    ),
  );
}

export async function removePersonInPanel(ports: PanelTeamPorts, input: Acting & { personId: string }): Promise<void> {
  const { actor, target } = await changeTeam(ports, input, { kind: 'remove', personId: input.personId });
  settled(await ports.team.remove(target, auditEntry(ports, actor, 'team.removed', input.ip, input.now, `${target.email} (${ROLE_LABELS[target.role]})`)));
}
