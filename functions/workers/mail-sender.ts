import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sendQueuedMail } from '../../shared/app/mail/send-mail';
import { endInvocation, type InvocationContext, logger, startInvocation, withLogKeys } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { handleSqsBatch } from '../../shared/platform/queue-batch';
import { getRuntime } from '../../shared/wiring/runtime';
import { mailPorts } from '../../shared/wiring/mail';

/** A message of the mail queue: the queued message's id (the stream forwarder sends it). */
export type MailMessage = { mailId: string };

function mailIdOf(record: SQSRecord): string | undefined {
  try {
    const { mailId } = JSON.parse(record.body) as Partial<MailMessage>;
    return typeof mailId === 'string' && /^mail_[A-Za-z0-9]{1,64}$/.test(mailId) ? mailId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The mail queue's consumer: sends each queued message of the merchant panel (invites, reset links,
 * sign-in notices) through SES, once at a time under a lease (shared/app/mail/send-mail.ts). A message
 * held by a live lease, or refused by SES, comes back (SQS retries it, then its DLQ, alarmed); a
 * malformed one is dropped with a log line.
 */
export async function handler(event: SQSEvent, context?: InvocationContext): Promise<SQSBatchResponse> {
  startInvocation(context, { worker: 'mail' });
  try {
    const ports = mailPorts(getRuntime());
    return await handleSqsBatch(
      event,
      (record) => {
        const mailId = mailIdOf(record);
        return withLogKeys({ messageId: record.messageId, mailId }, async () => {
          if (!mailId) {
            logger.error('mail message dropped: not a queued message id', { messageId: record.messageId });
            return;
          }
          if ((await sendQueuedMail(ports, mailId)) === 'later') throw new Error('The message is being sent by another worker: it comes back after its lease');
        });
      },
      (messageId, error) => logger.warn('mail message returned to the queue', { messageId, error: error instanceof Error ? error.message : 'unknown' }),
    );
  } finally {
    flushMetrics();
    endInvocation();
  }
}
