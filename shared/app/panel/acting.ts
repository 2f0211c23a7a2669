import type { PanelAccessPorts, PanelSessionPorts } from './access-ports';
import { mayAct, type PanelAction } from '../../domain/panel/roles';
import { type PanelPerson, sessionOfPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import { DomainError, UnauthorizedError } from '../../domain/errors';
import { useAuthenticatorCode } from './sign-in';
import type { Change } from '../../domain/changes';
import type { AuditEntry } from '../../domain/panel/audit';

export const SESSION_ENDED = 'Sua sessão terminou. Entre de novo.';

export const ROLE_FORBIDS = 'Seu papel nesta conta não permite esta ação. Peça a um proprietário ou administrador.';

/** The session's person, when their role allows the action (403 otherwise: the page says so, nothing changes). */
export async function actingPerson(ports: Pick<PanelAccessPorts, 'people'>, session: PanelSession, action: PanelAction): Promise<PanelPerson> {
  const person = await ports.people.byEmail(session.email);
  if (!sessionOfPerson(person, session)) throw new UnauthorizedError(SESSION_ENDED);
  if (!mayAct(person.role, action)) throw new DomainError('forbidden', ROLE_FORBIDS, 'role_forbidden');
  return person;
}

/**
 * Step-up (issue 27): a fresh code of the person's authenticator, used once, for the actions that move
 * keys, webhooks, money or the team. A wrong or used code counts against the signed-in session's own
 * log (issue 43): strangers' failed sign-ins for the e-mail never lock a working session.
 */
export function stepUp(ports: PanelSessionPorts, person: PanelPerson, input: { session: PanelSession; code: string; now: Date }): Promise<void> {
  return useAuthenticatorCode(ports, person, input, { session: input.session.sessionHash });
}

/** A panel action's entry in the account's audit log: who, what, when, from which address. */
export function auditEntry(ports: Pick<PanelAccessPorts, 'newId'>, person: PanelPerson, action: string, ip: string, now: Date, detail?: string): AuditEntry {
  return {
    accountId: person.accountId,
    at: now.toISOString(),
    entryId: ports.newId('aud'),
    personId: person.personId,
    email: person.email,
    action,
    ip,
    ...(detail !== undefined ? { detail } : {}),
  };
}

/** A panel action's entry in the account's audit log, as a change: committed with the action, in one transaction. */
export function auditedChange(ports: Pick<PanelAccessPorts, 'newId'>, person: PanelPerson, action: string, detail: string, ip: string, now: Date): Change {
  return { kind: 'panel.audited', entry: auditEntry(ports, person, action, ip, now, detail) };
}
