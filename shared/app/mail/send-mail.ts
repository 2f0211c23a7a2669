import { logger } from '../../logger';
import type { MailOutbox, MailSender } from '../../ports/mail';

/** A sending's lease: longer than the mail worker's run, so two workers never send one message at once. */
export const MAIL_LEASE_MS = 60_000;

export type SendMailPorts = {
  outbox: MailOutbox;
  /** Undefined when no sender is configured (a deploy without `mailFrom`): the message is skipped, said in the log. */
  send: MailSender | undefined;
  now: () => Date;
};

/**
 * Sends one queued message, at most once at a time: claimed first (a lease), sent, then marked sent
 * with its text removed. A message over already (a duplicate) or claimed by a live lease sends nothing:
 * 'done' or 'later' (the queue hands it over again once the lease may have run out). A sender that dies
 * between the provider's acceptance and the mark sends it again after the lease (at least once: a
 * person may get a message twice, never none). A provider's refusal throws: the queue retries it, then
 * its DLQ (alarmed).
 */
export async function sendQueuedMail(ports: SendMailPorts, mailId: string): Promise<'done' | 'later'> {
  const mail = await ports.outbox.get(mailId);
  if (!mail || mail.status !== 'pending') return 'done';
  const now = ports.now();
  if (!(await ports.outbox.claim(mailId, now, new Date(now.getTime() + MAIL_LEASE_MS)))) return 'later';
  if (!ports.send) {
    logger.warn('mail not sent: no sender configured (the mailFrom context value)', { mailId, kind: mail.kind });
    await ports.outbox.finish(mailId, { status: 'skipped', at: ports.now().toISOString() });
    return 'done';
  }
  const { messageId } = await ports.send({ to: mail.to, subject: mail.subject, text: mail.text });
  await ports.outbox.finish(mailId, { status: 'sent', at: ports.now().toISOString(), messageId });
  logger.info('mail sent', { mailId, kind: mail.kind, messageId });
  return 'done';
}
