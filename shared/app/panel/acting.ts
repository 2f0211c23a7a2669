import type { PanelAccessPorts } from './access-ports';
import { mayAct, type PanelAction } from '../../domain/panel/roles';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import { mayAttempt, signInWindow } from '../../domain/panel/sign-in-limits';
import { DomainError, RateLimitedError, UnauthorizedError } from '../../errors';
import { WRONG_CODE } from './sign-in';

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
 * keys, webhooks, money or the team. A wrong or used code counts as a sign-in failure of the e-mail.
 */
export async function stepUp(ports: PanelAccessPorts, person: PanelPerson, input: { code: string; ip: string; now: Date }): Promise<void> {
  const window = signInWindow(input.now);
  const keys = [`email:${person.email}`, `ip:${input.ip}`] as const;
  const [byEmail = 0, byAddress = 0] = await ports.failures.count(keys, window);
  if (!mayAttempt({ email: byEmail, address: byAddress })) throw new RateLimitedError(60);
  const secret = ports.sealing.unseal(person.totpSecretSealed, `person:${person.email}`);
  const step = secret === undefined ? undefined : ports.totp.match(secret, input.code, input.now);
  if (step === undefined || !(await ports.people.useTotpStep(person.email, step))) {
    await ports.failures.add(keys, window);
    throw new UnauthorizedError(WRONG_CODE);
  }
}
