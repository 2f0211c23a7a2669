import type { PanelAccessPorts, PanelSessionPorts } from './access-ports';
import { addressKey } from '../../domain/client-address';
import { normalizeEmail } from '../../domain/panel/invite';
import { type PanelPerson, sessionOfPerson } from '../../domain/panel/person';
import { type PanelSession, needsTouch, sessionLive } from '../../domain/panel/session';
import { SIGN_IN_WINDOW_MS, signInScopes, stepUpScopes } from '../../domain/panel/sign-in-limits';
import { withAttemptSlot } from '../limits/attempt-slots';
import { RateLimitedError, UnauthorizedError } from '../../domain/errors';
import { signInNoticeMail } from '../../domain/panel/mail';

/** One answer for an unknown e-mail and a wrong password (issue 27). */
export const WRONG_CREDENTIALS = 'E-mail ou senha incorretos.';
export const WRONG_CODE = 'Código incorreto ou já usado. Digite o código atual do aplicativo.';

/** Whether a refusal is a wrong or used authenticator code (the form's page says so again, nothing changed). */
export const isWrongCode = (err: unknown): boolean => err instanceof UnauthorizedError && err.message === WRONG_CODE;
/** A code stage that ended (5 minutes), or a cookie that leads nowhere: start again. */
export const SIGN_IN_AGAIN = 'Sua entrada expirou. Entre de novo com e-mail e senha.';

type Client = { ip: string; userAgent: string; now: Date };

/**
 * Where a password or code check counts: a sign-in's (its e-mail and address: a stranger's and the
 * person's own attempts alike) or a signed-in session's step-up (that session's own wrong entries only).
 */
export type CountedIn = { signIn: { email: string; ip: string } } | { session: string };

function scopesOf(counted: CountedIn) {
  return 'session' in counted ? stepUpScopes(counted.session) : signInScopes(counted.signIn.email, addressKey(counted.signIn.ip));
}

/**
 * A check that counts when it fails (issue 43): a slot of its logs taken first, in ONE conditional write
 * (a full log: 429 before anything is checked, so N attempts at once check at most the limit), given
 * back when the check is right, kept when it is wrong (or throws).
 */
async function countedCheck(
  ports: Pick<PanelSessionPorts, 'attempts' | 'newId'>,
  counted: CountedIn,
  now: Date,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const result = await withAttemptSlot(ports.attempts, { scopes: scopesOf(counted), slotId: ports.newId('att'), now }, check, (right) => right);
  if (result.refused) throw new RateLimitedError(result.refused.retryAfterSeconds ?? Math.ceil(SIGN_IN_WINDOW_MS / 1000));
  return result.outcome;
}

export const WRONG_CURRENT_PASSWORD = 'A senha atual não confere.';

/** The person's current password, from their signed-in session: counted against that session's step-up log (429 past it), a wrong one 401. */
export async function verifyCurrentPassword(
  ports: PanelAccessPorts,
  person: { email: string; passwordHash: string },
  input: { password: string; sessionHash: string; now: Date },
): Promise<void> {
  if (await countedCheck(ports, { session: input.sessionHash }, input.now, () => ports.passwords.verify(input.password, person.passwordHash))) return;
  throw new UnauthorizedError(WRONG_CURRENT_PASSWORD);
}

/**
 * A code of the person's authenticator, used once (sign-in's code step, a reset, and step-up): a slot
 * of where it counts taken first (429 past the limit), then the code matched around `now` and its step
 * recorded only if later than the last one used. A wrong or used code keeps its slot (401).
 */
export async function useAuthenticatorCode(
  ports: PanelSessionPorts,
  person: PanelPerson,
  input: { code: string; now: Date },
  counted: CountedIn,
): Promise<void> {
  const secret = ports.sealing.unseal(person.totpSecretSealed, `person:${person.email}`);
  if (secret === undefined) throw new Error("A panel person's authenticator secret does not unseal");
  const right = await countedCheck(ports, counted, input.now, async () => {
    const step = ports.totp.match(secret, input.code, input.now);
    return step !== undefined && (await ports.people.useTotpStep(person.email, step));
  });
  if (!right) throw new UnauthorizedError(WRONG_CODE);
}

/**
 * The password step: a slot of the e-mail's and the address's logs first (429 past them), then the
 * password (an unknown e-mail does the same work and gets the same answer). Right: a session in the code stage, under a new id.
 */
export async function signInWithPassword(ports: PanelAccessPorts, input: Client & { email: string; password: string }): Promise<{ sessionId: string }> {
  const email = normalizeEmail(input.email);
  const person = await ports.people.byEmail(email);
  const right = await countedCheck(ports, { signIn: { email, ip: input.ip } }, input.now, async () =>
    person ? ports.passwords.verify(input.password, person.passwordHash) : (await ports.passwords.burn(input.password), false),
  );
  if (!person || !right) throw new UnauthorizedError(WRONG_CREDENTIALS);
  const { token, tokenHash } = ports.tokens.newToken();
  const at = input.now.toISOString();
  await ports.sessions.open({
    sessionHash: tokenHash,
    personId: person.personId,
    accountId: person.accountId,
    email: person.email,
    stage: 'code',
    createdAt: at,
    lastSeenAt: at,
    ip: input.ip,
    userAgent: input.userAgent,
  });
  return { sessionId: token };
}

/**
 * The code step: the code-stage session (5 minutes), a slot of the sign-in's logs, then a code of the person's
 * authenticator not used before (its step recorded once). Right: the signed-in session under a NEW
 * id (the code stage's is deleted) with the person's new sign-in notice queued, and the audit entry.
 */
export async function signInWithCode(ports: PanelAccessPorts, input: Client & { sessionId: string | undefined; code: string }): Promise<{ sessionId: string }> {
  const pending = input.sessionId === undefined ? undefined : await ports.sessions.get(ports.tokens.hash(input.sessionId));
  if (!sessionLive(pending, input.now) || pending.stage !== 'code') throw new UnauthorizedError(SIGN_IN_AGAIN);
  const person = await ports.people.byEmail(pending.email);
  // Begun before a new password, a reset or "sign out everywhere" (the person's sessionsValidFrom): over too (issue 43).
  if (!sessionOfPerson(person, pending)) throw new UnauthorizedError(SIGN_IN_AGAIN);
  await useAuthenticatorCode(ports, person, input, { signIn: { email: person.email, ip: input.ip } });
  const { token, tokenHash } = ports.tokens.newToken();
  const at = input.now.toISOString();
  const session: PanelSession = {
    ...pending,
    sessionHash: tokenHash,
    stage: 'active',
    createdAt: at,
    lastSeenAt: at,
    ip: input.ip,
    userAgent: input.userAgent,
  };
  // The person is told of every sign-in (when, from which address and browser): a notice queued with the session.
  const notice = { ...signInNoticeMail({ to: person.email, at, ip: input.ip, userAgent: input.userAgent }), id: ports.newId('mail'), createdAt: at };
  if (!(await ports.sessions.promote(pending.sessionHash, session, notice))) throw new UnauthorizedError(SIGN_IN_AGAIN);
  await ports.audit.record({
    accountId: person.accountId,
    at,
    entryId: ports.newId('aud'),
    personId: person.personId,
    email: person.email,
    action: 'panel.signed_in',
    ip: input.ip,
  });
  return { sessionId: token };
}

/** The signed-in session of a cookie, kept alive (its activity written at most once a minute); undefined: none, ended, or still at the code. */
export async function signedInSession(
  ports: Pick<PanelAccessPorts, 'sessions' | 'tokens'>,
  sessionId: string | undefined,
  now: Date,
  options: { touch: boolean } = { touch: true },
): Promise<PanelSession | undefined> {
  if (sessionId === undefined) return undefined;
  const session = await ports.sessions.get(ports.tokens.hash(sessionId));
  if (!sessionLive(session, now) || session.stage !== 'active') return undefined;
  if (options.touch && needsTouch(session, now)) await ports.sessions.touch(session, now);
  return session;
}

/** Signs out: the session deleted and the audit entry (a session already gone: nothing to do). */
export async function signOut(ports: PanelAccessPorts, input: { sessionId: string | undefined; ip: string; now: Date }): Promise<void> {
  const session = await signedInSession(ports, input.sessionId, input.now);
  if (!session) return;
  await ports.sessions.close(session.sessionHash);
  await ports.audit.record({
    accountId: session.accountId,
    at: input.now.toISOString(),
    entryId: ports.newId('aud'),
    personId: session.personId,
    email: session.email,
    action: 'panel.signed_out',
    ip: input.ip,
  });
}
