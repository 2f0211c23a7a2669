import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
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
 * Sends one queued message, at most once at a time: claimed first (a lease, in the same write that
 * checks its recipient is not suppressed), sent, then marked sent with its text removed. A message over
 * already (a duplicate) or claimed by a live lease sends nothing: 'done' or 'later' (the queue hands it
 * over again once the lease may have run out). A sender that dies between the provider's acceptance and
 * the mark sends it again after the lease (at least once: a person may get a message twice, never none).
 *
 * Not delivered (issue 44), never marked sent and never retried: a recipient suppressed (a hard bounce
 * or a complaint before: shared/domain/panel/mail-feedback.ts) is not sent to at all; a message SES
 * refuses for good (the SES sandbox's unverified recipient) is recorded with SES's reason. Each is a
 * log line and a MailNotDelivered count. Any other failure of the provider throws: the queue retries
 * it, then its DLQ (alarmed).
 */
export async function sendQueuedMail(ports: SendMailPorts, mailId: string): Promise<'done' | 'later'> {
  const mail = await ports.outbox.get(mailId);
  if (!mail || mail.status !== 'pending') return 'done';
  const now = ports.now();
  const claim = await ports.outbox.claim(mailId, now, new Date(now.getTime() + MAIL_LEASE_MS), mail.to);
  if (claim === 'busy') return 'later';
  if (claim === 'suppressed') {
    await ports.outbox.finish(mailId, { status: 'suppressed', at: ports.now().toISOString(), reason: 'recipient suppressed (hard bounce or complaint)' });
    logger.warn('mail not delivered: its recipient is suppressed (an earlier hard bounce or complaint)', { mailId, kind: mail.kind, outcome: 'suppressed' });
    countMetric(BUSINESS_METRICS.mailNotDelivered);
    return 'done';
  }
  if (!ports.send) {
    logger.warn('mail not sent: no sender configured (the mailFrom context value)', { mailId, kind: mail.kind });
    await ports.outbox.finish(mailId, { status: 'skipped', at: ports.now().toISOString() });
    return 'done';
  }
  const sent = await ports.send({ to: mail.to, subject: mail.subject, text: mail.text, mailId, kind: mail.kind });
  if (sent.outcome === 'rejected') {
    await ports.outbox.finish(mailId, { status: 'rejected', at: ports.now().toISOString(), reason: sent.reason });
    logger.error('mail not delivered: SES refused it for good (in the SES sandbox, only verified addresses receive mail: README, "Leaving the SES sandbox")', {
      mailId,
      kind: mail.kind,
      outcome: 'rejected',
      reason: sent.reason,
    });
    countMetric(BUSINESS_METRICS.mailNotDelivered);
    return 'done';
  }
  await ports.outbox.finish(mailId, { status: 'sent', at: ports.now().toISOString(), messageId: sent.messageId });
  logger.info('mail sent', { mailId, kind: mail.kind, messageId: sent.messageId });
  return 'done';
}
