import type { MailKind } from '../domain/panel/mail';
import type { Suppression } from '../domain/panel/mail-feedback';

/**
 * How a queued message ended: sent (SES accepted it), skipped (no sender configured), or not delivered
 * (issue 44): `suppressed` (its recipient hard-bounced or complained before: never sent again) or
 * `rejected` (SES refused it for good, e.g. an unverified recipient while the account is in the SES sandbox).
 */
export type MailOutcome = 'sent' | 'skipped' | 'suppressed' | 'rejected';

/** A queued message as the mail worker reads it: pending with its recipient and text, or already over. */
export type QueuedMail =
  | { status: 'pending'; mailId: string; kind: MailKind; to: string; subject: string; text: string; claimUntil?: string }
  | { status: MailOutcome; mailId: string; kind: MailKind };

/** A claim's answer: the sending is this worker's, another holds a live lease (or it is over), or the recipient is suppressed. */
export type MailClaim = 'claimed' | 'busy' | 'suppressed';

/** How queued messages ended, by id (a message still pending, or gone past its keeping time, is absent). */
export type MailOutcomes = (mailIds: readonly string[]) => Promise<Map<string, MailOutcome>>;

/** The queued messages (shared/adapters/dynamo/mail-outbox.ts). */
export interface MailOutbox {
  get(mailId: string): Promise<QueuedMail | undefined>;
  /**
   * Claims the sending (a lease) in the same write that checks its recipient is not suppressed (one
   * atomic write admits or refuses): 'busy' when another worker holds a live lease or it is over.
   */
  claim(mailId: string, now: Date, until: Date, to: string): Promise<MailClaim>;
  /** Over: sent (with the provider's message id), skipped, or not delivered (with why); its text removed. */
  finish(mailId: string, outcome: { status: MailOutcome; at: string; messageId?: string; reason?: string }): Promise<void>;
}

/** What the provider did with a message: accepted (its message id), or refused it for good (why, in its words). */
export type MailSent = { outcome: 'sent'; messageId: string } | { outcome: 'rejected'; reason: string };

/**
 * Sends one message (Amazon SES in AWS, the loopback stand-in locally). A refusal that retrying cannot
 * change answers 'rejected'; any other failure throws (the queue retries it).
 */
export type MailSender = (mail: { to: string; subject: string; text: string; mailId: string; kind: MailKind }) => Promise<MailSent>;

/**
 * The addresses the panel no longer mails (shared/adapters/dynamo/mail-suppressions.ts): kept by a
 * hash of the normalized e-mail, never the e-mail itself.
 */
export interface MailSuppressions {
  /** Records each suppression (the first reason of an address is kept); how many addresses were new. */
  suppress(entries: readonly Suppression[]): Promise<number>;
  /** Which of these (normalized) e-mails are suppressed. */
  suppressed(emails: readonly string[]): Promise<Set<string>>;
}
