import type { MailKind } from '../domain/panel/mail';

/** A queued message as the mail worker reads it: pending with its recipient and text, or already over. */
export type QueuedMail =
  | { status: 'pending'; mailId: string; kind: MailKind; to: string; subject: string; text: string; claimUntil?: string }
  | { status: 'sent' | 'skipped'; mailId: string; kind: MailKind };

/** The queued messages (shared/adapters/dynamo/mail-outbox.ts). */
export interface MailOutbox {
  get(mailId: string): Promise<QueuedMail | undefined>;
  /** Claims the sending (a lease): false when another worker holds a live lease, or it is over. */
  claim(mailId: string, now: Date, until: Date): Promise<boolean>;
  /** Over: sent (with the provider's message id) or skipped (no sender configured); its text removed. */
  finish(mailId: string, outcome: { status: 'sent' | 'skipped'; at: string; messageId?: string }): Promise<void>;
}

/** Sends one message (Amazon SES in AWS, the loopback stand-in locally): the provider's message id. */
export type MailSender = (mail: { to: string; subject: string; text: string }) => Promise<{ messageId: string }>;
