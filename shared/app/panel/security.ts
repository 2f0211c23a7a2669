import type { PanelAccessPorts, PasswordSettingPorts } from './access-ports';
import { actingPerson, auditEntry, stepUp } from './acting';
import { verifyCurrentPassword } from './sign-in';
import { passwordProblems } from '../../domain/panel/password-policy';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import { ConflictError, ValidationError } from '../../domain/errors';

/**
 * The person's own security page (issue 27): their open sessions, "sign out everywhere", and a new
 * password (the current one first; every session then ends, this one too: sign in again). Every
 * person's own, whatever their role.
 */
export type SecurityView = { email: string; sessions: (Pick<PanelSession, 'createdAt' | 'lastSeenAt' | 'ip' | 'userAgent'> & { current: boolean })[] };

export async function securityView(ports: PanelAccessPorts, session: PanelSession): Promise<SecurityView> {
  const person = await actingPerson(ports, session, 'read');
  // The index may lag a sign-in by a moment, and keep an ended session until its item goes: only the person's live ones are shown.
  const listed = (await ports.sessions.listOf(person.personId)).filter(
    (s) => s.sessionHash === session.sessionHash || s.createdAt >= (person.sessionsValidFrom ?? ''),
  );
  const sessions = listed.some((s) => s.sessionHash === session.sessionHash) ? listed : [session, ...listed];
  return {
    email: person.email,
    sessions: sessions.map((s) => ({
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      ip: s.ip,
      userAgent: s.userAgent,
      current: s.sessionHash === session.sessionHash,
    })),
  };
}

/** Ends all of the person's sessions at once (this one too), then closes the ones listed; audited. */
async function endAll(ports: PanelAccessPorts, person: PanelPerson, now: Date, passwordHash?: string): Promise<void> {
  if (!(await ports.people.endSessions(person, now.toISOString(), passwordHash)))
    throw new ConflictError('Sua conta no painel mudou enquanto isso. Entre de novo.', 'person_changed');
  // The person's `sessionsValidFrom` already refuses them all; deleting the listed items only tidies up.
  await Promise.all((await ports.sessions.listOf(person.personId)).map((s) => ports.sessions.close(s.sessionHash)));
}

export async function signOutEverywhere(ports: PanelAccessPorts, input: { session: PanelSession; ip: string; now: Date }): Promise<void> {
  const person = await actingPerson(ports, input.session, 'read');
  await endAll(ports, person, input.now);
  await ports.audit.record(auditEntry(ports, person, 'panel.signed_out_everywhere', input.ip, input.now));
}

/** A new password: the current one (a wrong one counts as a sign-in failure), the policy, then every session ends. */
export async function changePassword(
  ports: PasswordSettingPorts,
  input: { session: PanelSession; current: string; password: string; confirmation: string; ip: string; now: Date },
): Promise<void> {
  const person = await actingPerson(ports, input.session, 'read');
  const problems = await passwordProblems(input.password, { email: person.email, accountName: await ports.accountNames.nameOf(person.accountId) });
  const fields: Record<string, string[]> = {};
  if (problems.length > 0) fields.password = problems;
  if (input.confirmation !== input.password) fields.confirmation = ['As senhas não são iguais.'];
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  await verifyCurrentPassword(ports, person, { password: input.current, sessionHash: input.session.sessionHash, now: input.now });
  await endAll(ports, person, input.now, await ports.passwords.hash(input.password));
  await ports.audit.record(auditEntry(ports, person, 'panel.password_changed', input.ip, input.now));
}

/** How long a new authenticator shown after the step-up may be confirmed. */
const REENROLL_MS = 10 * 60 * 1000;

export type NewAuthenticatorView = { secret: string; otpauthUri: string; qrDataUri: string; sealedSecret: string };

/** A new authenticator's form is for this session and in place of this very authenticator: once replaced, it no longer opens. */
const reenrollBinding = (session: PanelSession, person: PanelPerson) => `reenroll:${session.personId}:${session.sessionHash}:${person.totpSecretSealed}`;

/**
 * A new authenticator, step one: a fresh code of the current one (step-up), then a new secret shown with
 * its QR code, sealed into the form for this session only and for 10 minutes (nothing stored yet).
 */
export async function startNewAuthenticator(
  ports: PanelAccessPorts & { qrDataUri: (uri: string) => string },
  input: { session: PanelSession; code: string; ip: string; now: Date },
): Promise<NewAuthenticatorView> {
  const person = await actingPerson(ports, input.session, 'read');
  await stepUp(ports, person, input);
  const secret = ports.totp.newSecret();
  const uri = ports.totp.uri(secret, person.email);
  const until = input.now.getTime() + REENROLL_MS;
  return {
    secret,
    otpauthUri: uri,
    qrDataUri: ports.qrDataUri(uri),
    sealedSecret: ports.sealing.seal(`${until}.${secret}`, reenrollBinding(input.session, person)),
  };
}

/** Step two: a code of the new authenticator; it then replaces the old one (only if still the old one), audited. */
export async function confirmNewAuthenticator(
  ports: PanelAccessPorts,
  input: { session: PanelSession; sealedSecret: string; code: string; ip: string; now: Date },
): Promise<void> {
  const person = await actingPerson(ports, input.session, 'read');
  const opened = ports.sealing.unseal(input.sealedSecret, reenrollBinding(input.session, person));
  const [until, secret] = opened === undefined ? [] : [Number(opened.slice(0, opened.indexOf('.'))), opened.slice(opened.indexOf('.') + 1)];
  if (secret === undefined || until === undefined || !(until > input.now.getTime())) {
    throw new ValidationError({ code: ['Este pedido expirou: comece de novo a troca do autenticador.'] });
  }
  const step = ports.totp.match(secret, input.code, input.now);
  if (step === undefined) throw new ValidationError({ code: ['Código incorreto. Digite o código atual do novo aplicativo.'] });
  if (!(await ports.people.replaceAuthenticator(person, ports.sealing.seal(secret, `person:${person.email}`), step))) {
    throw new ConflictError('Seu autenticador mudou enquanto isso. Comece de novo.', 'person_changed');
  }
  await ports.audit.record(auditEntry(ports, person, 'panel.authenticator_replaced', input.ip, input.now));
}
