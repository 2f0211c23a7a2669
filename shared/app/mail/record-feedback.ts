import { isHardBounce, type MailFeedback, suppressionsOf } from '../../domain/panel/mail-feedback';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
import type { MailSuppressions } from '../../ports/mail';

export type MailFeedbackPorts = { suppressions: MailSuppressions; now: () => Date };

/** What one event came to: how many recipients it suppressed (new ones), and what it was. */
export type FeedbackRecorded = { kind: MailFeedback['kind'] | 'soft_bounce'; suppressed: number };

/**
 * Records one SES event of the panel's mail (issue 44): a hard bounce or a complaint suppresses its
 * recipients (the mail worker sends them nothing more, the team page says an invite to one was not
 * delivered); a soft bounce is logged only. Idempotent: SQS may hand an event over twice, and an
 * address suppressed already stays as it was. Never logs an address: the queued message's id names it.
 */
export async function recordMailFeedback(ports: MailFeedbackPorts, feedback: MailFeedback): Promise<FeedbackRecorded> {
  if (feedback.kind === 'other') return { kind: 'other', suppressed: 0 };
  const context = { mailId: feedback.mailId, mailKind: feedback.mailKind, sesMessageId: feedback.sesMessageId, recipients: feedback.recipients.length };
  const suppressions = suppressionsOf(feedback, ports.now().toISOString());
  if (feedback.kind === 'bounce' && !isHardBounce(feedback)) {
    logger.info('mail soft bounce: not suppressed', { ...context, bounceType: feedback.bounceType, bounceSubType: feedback.bounceSubType });
    return { kind: 'soft_bounce', suppressed: 0 };
  }
  const added = await ports.suppressions.suppress(suppressions);
  if (feedback.kind === 'bounce') {
    countMetric(BUSINESS_METRICS.mailHardBounces, { value: Math.max(1, feedback.recipients.length) });
    logger.warn('mail hard bounce: recipients suppressed', {
      ...context,
      bounceType: feedback.bounceType,
      bounceSubType: feedback.bounceSubType,
      newlySuppressed: added,
    });
  } else {
    countMetric(BUSINESS_METRICS.mailComplaints, { value: Math.max(1, feedback.recipients.length) });
    logger.warn(suppressions.length > 0 ? 'mail complaint: recipients suppressed' : 'mail complaint marked not-spam: nothing suppressed', {
      ...context,
      feedbackType: feedback.feedbackType,
      newlySuppressed: added,
    });
  }
  return { kind: feedback.kind, suppressed: added };
}
