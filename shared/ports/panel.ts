import type { OutgoingMail } from '../domain/panel/mail';
import type { PasswordReset } from '../domain/panel/reset';
import type { AuditEntry } from '../domain/panel/audit';
import type { PanelInvite } from '../domain/panel/invite';
import type { PanelPerson } from '../domain/panel/person';
import type { PanelSession } from '../domain/panel/session';

/** What storing an invite came to: stored, or refused because the person inviting no longer holds the role they invited with. */
export type InviteCreation = 'created' | 'inviter_changed';

/**
 * The merchant panel's invitations (issue 27): read by the token's hash; one live invite per e-mail and
 * account (issue 43), listed per account, revocable.
 */
export interface PanelInvites {
  /**
   * Stores a new invite and queues its mail, in one write, in place of the account's earlier invite for
   * the e-mail (whose link stops in the same write); a person's invite only while they still hold the
   * role they invite with (`inviter_changed` otherwise, nothing written).
   */
  create(invite: PanelInvite, mail: OutgoingMail): Promise<InviteCreation>;
  /** The invite of a link, only while it is its e-mail's live invite in the account (not replaced, revoked or used). */
  get(tokenHash: string): Promise<PanelInvite | undefined>;
  /** The account's live invites (expired ones included until their items go), by e-mail. */
  pending(accountId: string): Promise<PanelInvite[]>;
  /** The invite revoked (its link stops) with its audit entry, in one transaction; false when it was used, replaced or revoked meanwhile. */
  revoke(invite: PanelInvite, audit: AuditEntry): Promise<boolean>;
}

/** Password reset links (shared/adapters/dynamo/panel-resets.ts). */
export interface PanelResets {
  /** Stores a new reset link and queues its mail, in one write. */
  create(reset: PasswordReset, mail: OutgoingMail): Promise<void>;
  get(tokenHash: string): Promise<PasswordReset | undefined>;
  /**
   * Uses the link once: in one transaction the link is deleted and the person's password replaced, their
   * sessions ended (`sessionsValidFrom`), conditional on the person as read. False when the link is gone
   * (used meanwhile) or the person changed.
   */
  complete(reset: PasswordReset, person: PanelPerson, passwordHash: string, at: string): Promise<boolean>;
}

/** Whether an e-mail already signs in to the panel (an e-mail is one person, service-wide). */
export interface PanelEmails {
  taken(email: string): Promise<boolean>;
}

/** What enrolling an invited person came to: done, the invite used or expired meanwhile, the e-mail taken meanwhile. */
export type Enrollment = 'enrolled' | 'invite_gone' | 'email_taken';

/** The merchant accounts' names, as a new password's policy reads them: a password may not be guessed from its account's name (issue 43). */
export interface PanelAccountNames {
  /** The account's display name, or undefined (no such account, or no name). */
  nameOf(accountId: string): Promise<string | undefined>;
}

/** The panel's people, by e-mail. */
export interface PanelPeople {
  byEmail(email: string): Promise<PanelPerson | undefined>;
  /**
   * In one transaction: the invite used (deleted: it works once; still its e-mail's live invite), the
   * person created (the e-mail unused), the audit entry, and the person who invited checked to still
   * hold a role that backs it (shared/domain/panel/invite.ts: `invite_gone` otherwise).
   */
  enroll(invite: PanelInvite, person: PanelPerson, audit: AuditEntry, now: Date): Promise<Enrollment>;
  /** Records the authenticator step a code matched, only when later than the last one used: false, the code was used already. */
  useTotpStep(email: string, step: number): Promise<boolean>;
  /**
   * Ends every session the person opened until `at` (the sessions opened before are refused from now on),
   * with a new password hash when one is given; false when the person changed meanwhile (removed, another).
   */
  endSessions(person: PanelPerson, at: string, passwordHash?: string): Promise<boolean>;
  /** A new authenticator in the old one's place (only if still the old one), its first code's step recorded as used; false when it changed meanwhile. */
  replaceAuthenticator(person: PanelPerson, totpSecretSealed: string, step: number): Promise<boolean>;
}

/**
 * What a team change came to: done, the person changed or left meanwhile, it would leave the account
 * without an owner, or one of the invites to revoke with it was used or replaced meanwhile (read them again).
 */
export type TeamChangeOutcome = 'done' | 'moved' | 'last_owner' | 'invites_moved';

/** An account's panel team: its people (the team page) and the changes to it, each with its audit entry in one transaction. */
export interface PanelTeam {
  /** The account's people, by e-mail (the index: eventually consistent; the changes check the person itself). */
  members(accountId: string): Promise<Pick<PanelPerson, 'personId' | 'accountId' | 'email' | 'role' | 'createdAt'>[]>;
  /**
   * The person's role from `person.role` to `role`, only if still so; an owner demoted only while another
   * owner stays; the invites in `revoke` revoked in the same transaction (each only if still live).
   */
  changeRole(person: PanelPerson, role: PanelPerson['role'], audit: AuditEntry, revoke: readonly PanelInvite[]): Promise<TeamChangeOutcome>;
  /** The person removed (their sessions stop: every page checks the person), an owner only while another owner stays; `revoke` as above. */
  remove(person: PanelPerson, audit: AuditEntry, revoke: readonly PanelInvite[]): Promise<TeamChangeOutcome>;
}

/** Server-side sessions, by the SHA-256 of their id; each ends by itself (TTL) when it ends by the rules. */
export interface PanelSessions {
  open(session: PanelSession): Promise<void>;
  get(sessionHash: string): Promise<PanelSession | undefined>;
  /**
   * Replaces a code-stage session by the signed-in one under a new id, once, and queues the person's
   * new sign-in notice in the same write: false when the old one is gone (used, signed out).
   */
  promote(oldHash: string, next: PanelSession, notice: OutgoingMail): Promise<boolean>;
  touch(session: PanelSession, now: Date): Promise<void>;
  /** The person's signed-in sessions, newest first (an index: eventually consistent; the person's `sessionsValidFrom` is what ends them). */
  listOf(personId: string): Promise<PanelSession[]>;
  close(sessionHash: string): Promise<void>;
}

export interface PanelAuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** The account's latest entries, newest first. */
  latest(accountId: string, limit: number): Promise<AuditEntry[]>;
}
