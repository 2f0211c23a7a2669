import type { PanelAccessPorts } from './access-ports';
import { mayAct, type PanelAction } from '../../domain/panel/roles';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import { DomainError, UnauthorizedError } from '../../errors';
import { useAuthenticatorCode } from './sign-in';

export const ROLE_FORBIDS = 'Seu papel nesta conta não permite esta ação. Peça a um proprietário ou administrador.';

/** The session's person, when their role allows the action (403 otherwise: the page says so, nothing changes). */
export async function actingPerson(ports: Pick<PanelAccessPorts, 'people'>, session: PanelSession, action: PanelAction): Promise<PanelPerson> {
  const person = await ports.people.byEmail(session.email);
  if (!person || person.personId !== session.personId || person.accountId !== session.accountId) throw new UnauthorizedError('Sua sessão terminou. Entre de novo.');
  if (!mayAct(person.role, action)) throw new DomainError('forbidden', ROLE_FORBIDS, 'role_forbidden');
  return person;
}

/**
 * Step-up (issue 27): a fresh code of the person's authenticator, used once, for the actions that move
 * keys, webhooks, money or the team; a wrong or used code counts as a sign-in failure of the e-mail.
 */
export function stepUp(ports: PanelAccessPorts, person: PanelPerson, input: { code: string; ip: string; now: Date }): Promise<void> {
  return useAuthenticatorCode(ports, person, input);
}
