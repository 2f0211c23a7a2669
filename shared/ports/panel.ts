import type { AuditEntry } from '../domain/panel/audit';
import type { PanelInvite } from '../domain/panel/invite';
import type { PanelPerson } from '../domain/panel/person';
import type { PanelSession } from '../domain/panel/session';

/** The merchant panel's invitations (issue 27): written once, read by the token's hash. */
export interface PanelInvites {
  /** Stores a new invite; a token hash already stored (never, with 256-bit tokens) is an error. */
  create(invite: PanelInvite): Promise<void>;
  get(tokenHash: string): Promise<PanelInvite | undefined>;
}

/** Whether an e-mail already signs in to the panel (an e-mail is one person, service-wide). */
export interface PanelEmails {
  taken(email: string): Promise<boolean>;
}

/** What enrolling an invited person came to: done, the invite used or expired meanwhile, the e-mail taken meanwhile. */
export type Enrollment = 'enrolled' | 'invite_gone' | 'email_taken';

/** The panel's people, by e-mail. */
export interface PanelPeople {
  byEmail(email: string): Promise<PanelPerson | undefined>;
  /** In one transaction: the invite used (deleted: it works once), the person created (the e-mail unused), the audit entry. */
  enroll(invite: PanelInvite, person: PanelPerson, audit: AuditEntry, now: Date): Promise<Enrollment>;
  /** Records the authenticator step a code matched, only when later than the last one used: false, the code was used already. */
  useTotpStep(email: string, step: number): Promise<boolean>;
}

/** Server-side sessions, by the SHA-256 of their id; each ends by itself (TTL) when it ends by the rules. */
export interface PanelSessions {
  open(session: PanelSession): Promise<void>;
  get(sessionHash: string): Promise<PanelSession | undefined>;
  /** Replaces a code-stage session by the signed-in one under a new id, once: false when the old one is gone (used, signed out). */
  promote(oldHash: string, next: PanelSession): Promise<boolean>;
  touch(session: PanelSession, now: Date): Promise<void>;
  close(sessionHash: string): Promise<void>;
}

/** The sign-in failures counted per key (`email:<e-mail>`, `ip:<address>`) in a window. */
export interface SignInFailures {
  count(keys: readonly string[], window: number): Promise<number[]>;
  add(keys: readonly string[], window: number): Promise<void>;
}

export interface PanelAuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** The account's latest entries, newest first. */
  latest(accountId: string, limit: number): Promise<AuditEntry[]>;
}
