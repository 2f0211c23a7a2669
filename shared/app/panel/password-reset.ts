import type { PasswordSettingPorts } from './access-ports';
import { auditEntry } from './acting';
import { useAuthenticatorCode } from './sign-in';
import { normalizeEmail } from '../../domain/panel/invite';
import { passwordResetMail } from '../../domain/panel/mail';
import { passwordProblems } from '../../domain/panel/password-policy';
import { newReset, resetUsable } from '../../domain/panel/reset';
import { resetMailScopes } from '../../domain/panel/sign-in-limits';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import type { PanelResets } from '../../ports/panel';

export type RecoveryPorts = PasswordSettingPorts & { resets: PanelResets; publicBaseUrl: string };

/** What asking a link needs (the operator's CLI has these without a panel runtime). */
export type ResetRequestPorts = Pick<RecoveryPorts, 'people' | 'attempts' | 'tokens' | 'newId' | 'resets' | 'audit' | 'publicBaseUrl'>;

/** The answer the operator's `panel reset` prints (the panel never shows it: the link goes by mail). */
export type ResetAnswer = { email: string; reset_url: string; expires_at: string };

/** What a link that does not open says (unknown, used or expired: one answer). */
export const RESET_LINK_GONE = 'Este link de redefinição não vale mais. Peça outro em "Esqueci a senha".';

/** The reset link: the panel's page, the token in the path (never in a query string the edge logs). */
export function resetUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/panel/senha/redefinir/${token}`;
}

/**
 * A reset link for an e-mail, mailed to it (queued with the link, one write) and audited: the person's
 * own request from the panel (`self`: at most RESETS_PER_EMAIL per 15 minutes, more are not sent) or the
 * operator's `panel reset` (which also prints it). An e-mail that does not sign in gets no link
 * (undefined): the panel's answer is the same either way.
 */
export async function requestPasswordReset(
  ports: ResetRequestPorts,
  input: { email: string; requestedBy: 'self' | 'operator'; ip: string; now: Date },
): Promise<ResetAnswer | undefined> {
  const email = normalizeEmail(input.email);
  const person = email.length > 0 && email.length <= 254 ? await ports.people.byEmail(email) : undefined;
  if (!person) return undefined;
  if (input.requestedBy === 'self') {
    // One conditional write admits or refuses (issue 43): N requests at once mail at most RESETS_PER_EMAIL links.
    const taken = await ports.attempts.take(resetMailScopes(email), ports.newId('att'), input.now);
    if (!taken.admitted) {
      logger.warn('password reset not sent: too many asked for this e-mail in the window', { accountId: person.accountId });
      return undefined;
    }
  }
  const { token, tokenHash } = ports.tokens.newToken();
  const reset = newReset({ tokenHash, personId: person.personId, accountId: person.accountId, email, requestedBy: input.requestedBy, now: input.now });
  const link = resetUrl(ports.publicBaseUrl, token);
  const mail = { ...passwordResetMail({ to: email, link, expiresAt: reset.expiresAt }), id: ports.newId('mail'), createdAt: reset.createdAt };
  await ports.resets.create(reset, mail);
  await ports.audit.record(
    auditEntry(ports, person, 'panel.password_reset_requested', input.ip, input.now, input.requestedBy === 'operator' ? 'pelo operador' : undefined),
  );
  return { email, reset_url: link, expires_at: reset.expiresAt };
}

/** The reset page of a link that still works: whose it is (the page names the e-mail); else NotFoundError. */
export async function resetPage(ports: RecoveryPorts, input: { token: string; now: Date }): Promise<{ email: string }> {
  const reset = await ports.resets.get(ports.tokens.hash(input.token));
  if (!resetUsable(reset, input.now)) throw new NotFoundError(RESET_LINK_GONE);
  return { email: reset.email };
}

/**
 * A new password through a reset link: the link (once, within the hour), the password policy, then a
 * code of the person's authenticator (counted like a sign-in's); the link used and the password replaced
 * in one transaction, every session of the person ended, audited. Sign in again with the new password.
 */
export async function resetPassword(
  ports: RecoveryPorts,
  input: { token: string; password: string; confirmation: string; code: string; ip: string; now: Date },
): Promise<void> {
  const reset = await ports.resets.get(ports.tokens.hash(input.token));
  if (!resetUsable(reset, input.now)) throw new NotFoundError(RESET_LINK_GONE);
  const person = await ports.people.byEmail(reset.email);
  if (!person || person.personId !== reset.personId) throw new NotFoundError(RESET_LINK_GONE);
  const fields: Record<string, string[]> = {};
  const problems = await passwordProblems(input.password, { email: person.email, accountName: await ports.accountNames.nameOf(person.accountId) });
  if (problems.length > 0) fields.password = problems;
  if (input.confirmation !== input.password) fields.confirmation = ['As senhas não são iguais.'];
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  // Not signed in: the code counts like a sign-in's, against the e-mail and the address.
  await useAuthenticatorCode(ports, person, input, { signIn: { email: person.email, ip: input.ip } });
  const at = input.now.toISOString();
  if (!(await ports.resets.complete(reset, person, await ports.passwords.hash(input.password), at))) {
    throw new ConflictError('Este link acabou de ser usado, ou sua conta mudou. Peça outro link.', 'reset_used');
  }
  // The person's `sessionsValidFrom` already refuses every session; deleting the listed items only tidies up.
  await Promise.all((await ports.sessions.listOf(person.personId)).map((s) => ports.sessions.close(s.sessionHash)));
  await ports.audit.record(auditEntry(ports, person, 'panel.password_reset', input.ip, input.now));
}
