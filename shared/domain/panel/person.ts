import type { PanelRole } from './roles';

/** A person of the merchant panel: one account, one role, a password and an authenticator. */
export type PanelPerson = {
  personId: string;
  accountId: string;
  /** Normalized (normalizeEmail): the sign-in name, unique service-wide. */
  email: string;
  role: PanelRole;
  /** scrypt, self-describing (shared/adapters/crypto/password-hash.ts); never logged. */
  passwordHash: string;
  /** The authenticator's secret, sealed with the panel's key (AES-256-GCM, bound to the person). */
  totpSecretSealed: string;
  /** The last authenticator step used (codes are used once: shared/domain/panel/totp-steps.ts). */
  totpLastStep?: number;
  createdAt: string;
  passwordChangedAt: string;
  /** Sessions opened before this instant are over ("sign out everywhere", a new password). */
  sessionsValidFrom?: string;
};

/** Whether a session still belongs to its person: theirs, in their account, opened after they ended their sessions. */
export function sessionOfPerson(person: PanelPerson | undefined, session: { personId: string; accountId: string; createdAt: string }): person is PanelPerson {
  if (!person || person.personId !== session.personId || person.accountId !== session.accountId) return false;
  return person.sessionsValidFrom === undefined || session.createdAt >= person.sessionsValidFrom;
}
