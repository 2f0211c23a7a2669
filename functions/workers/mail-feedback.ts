import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordMailFeedback } from '../../shared/app/mail/record-feedback';
import { mailFeedbackOf } from '../../shared/domain/panel/mail-feedback';
import { endInvocation, type InvocationContext, logger, startInvocation, withLogKeys } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { handleSqsBatch } from '../../shared/platform/queue-batch';
import { getRuntime } from '../../shared/wiring/runtime';
import { mailFeedbackPorts } from '../../shared/wiring/mail';

/**
 * The mail feedback queue's consumer (issue 44): SES's bounce and complaint events of the panel's mail
 * (the configuration set's event destination, an SNS topic subscribed by the queue). A hard bounce or a
 * complaint suppresses its recipients (shared/app/mail/record-feedback.ts); a soft bounce is logged; a
 * message that is no SES event is dropped with a log line; a failed write comes back (SQS retries it,
 * then its DLQ, alarmed).
 */
export async function handler(event: SQSEvent, context?: InvocationContext): Promise<SQSBatchResponse> {
  startInvocation(context, { worker: 'mailFeedback' });
  try {
    const ports = mailFeedbackPorts(getRuntime());
    return await handleSqsBatch(
      event,
      (record) =>
        withLogKeys({ messageId: record.messageId }, async () => {
          const feedback = mailFeedbackOf(record.body);
          if (!feedback) {
            logger.error('mail feedback message dropped: not an SES event', { messageId: record.messageId });
            return;
          }
          await recordMailFeedback(ports, feedback);
        }),
      (messageId, error) =>
        logger.warn('mail feedback message returned to the queue', { messageId, error: error instanceof Error ? error.message : 'unknown' }),
    );
  } finally {
    flushMetrics();
    endInvocation();
  }
}
