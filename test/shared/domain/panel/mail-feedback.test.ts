import { describe, expect, it } from 'vitest';
import { isHardBounce, mailFeedbackOf, sesEventOf, suppressionsOf } from '../../../../shared/domain/panel/mail-feedback';

const NOW = '2026-11-28T12:00:00.000Z';

/** SES's event of a hard bounce (the mailbox simulator's bounce address), as event publishing writes it. */
const hardBounce = {
  eventType: 'Bounce',
  bounce: {
    bounceType: 'Permanent',
    bounceSubType: 'General',
    bouncedRecipients: [
      { emailAddress: 'Bounce+A1@Simulator.AmazonSES.com', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
    ],
    timestamp: '2026-11-28T11:59:00.000Z',
    feedbackId: '0102-feedback',
    reportingMTA: 'dsn; a8-96.smtp-out.amazonses.com',
  },
  mail: {
    timestamp: '2026-11-28T11:58:59.000Z',
    source: 'painel@pay.example.com',
    messageId: '0102-ses-id',
    destination: ['bounce+a1@simulator.amazonses.com'],
    tags: { mailId: ['mail_abc'], kind: ['invite'], 'ses:configuration-set': ['panel-mail'] },
  },
};

/** …inside SNS's envelope, as the subscribed queue receives it (no raw message delivery). */
const inSns = (event: object) =>
  JSON.stringify({ Type: 'Notification', MessageId: 'sns-1', TopicArn: 'arn:aws:sns:us-east-1:123456789012:feedback', Message: JSON.stringify(event) });

describe('SES feedback events (shared/domain/panel/mail-feedback.ts)', () => {
  it('reads a bounce from SNS’s envelope and bare (raw delivery) alike: type, subtype, recipients normalized, the queued message’s tags', () => {
    for (const body of [inSns(hardBounce), JSON.stringify(hardBounce)]) {
      expect(mailFeedbackOf(body)).toEqual({
        kind: 'bounce',
        bounceType: 'Permanent',
        bounceSubType: 'General',
        recipients: ['bounce+a1@simulator.amazonses.com'],
        at: '2026-11-28T11:59:00.000Z',
        sesMessageId: '0102-ses-id',
        mailId: 'mail_abc',
        mailKind: 'invite',
      });
    }
  });

  it('reads identity notifications too (notificationType instead of eventType)', () => {
    const { eventType: _dropped, ...rest } = hardBounce;
    expect(mailFeedbackOf(JSON.stringify({ notificationType: 'Bounce', ...rest }))?.kind).toBe('bounce');
  });

  it('a hard bounce (Permanent, any subtype: SES’s own suppression list included) suppresses every recipient, with its detail', () => {
    const two = {
      ...hardBounce,
      bounce: { ...hardBounce.bounce, bouncedRecipients: [{ emailAddress: 'a@x.example' }, { emailAddress: 'Fulano <B@x.example>' }, { status: '5.1.1' }] },
    };
    const feedback = mailFeedbackOf(JSON.stringify(two));
    if (!feedback) throw new Error('not read');
    expect(isHardBounce(feedback)).toBe(true);
    expect(suppressionsOf(feedback, NOW)).toEqual([
      { email: 'a@x.example', reason: 'bounce', detail: 'Permanent/General', at: '2026-11-28T11:59:00.000Z' },
      { email: 'b@x.example', reason: 'bounce', detail: 'Permanent/General', at: '2026-11-28T11:59:00.000Z' },
    ]);
    const listed = mailFeedbackOf(JSON.stringify({ ...hardBounce, bounce: { ...hardBounce.bounce, bounceSubType: 'OnAccountSuppressionList' } }));
    expect(listed && suppressionsOf(listed, NOW).map((s) => s.detail)).toEqual(['Permanent/OnAccountSuppressionList']);
  });

  it('a soft bounce (Transient: out of office, a full mailbox; or Undetermined) suppresses nothing', () => {
    for (const bounceType of ['Transient', 'Undetermined']) {
      const soft = mailFeedbackOf(JSON.stringify({ ...hardBounce, bounce: { ...hardBounce.bounce, bounceType, bounceSubType: 'MailboxFull' } }));
      if (!soft) throw new Error('not read');
      expect(isHardBounce(soft), bounceType).toBe(false);
      expect(suppressionsOf(soft, NOW), bounceType).toEqual([]);
    }
    // A bounce without a type is no hard bounce.
    const untyped = mailFeedbackOf(JSON.stringify({ eventType: 'Bounce', bounce: { bouncedRecipients: [{ emailAddress: 'a@x.example' }] } }));
    expect(untyped && suppressionsOf(untyped, NOW)).toEqual([]);
  });

  it('a complaint suppresses its recipients, unless the provider reports it as not-spam; a missing timestamp takes now', () => {
    const complaint = {
      eventType: 'Complaint',
      complaint: { complainedRecipients: [{ emailAddress: 'complaint@simulator.amazonses.com' }], complaintFeedbackType: 'abuse', feedbackId: 'f' },
      mail: { messageId: 'm', tags: { mailId: ['mail_x'] } },
    };
    const feedback = mailFeedbackOf(inSns(complaint));
    if (!feedback) throw new Error('not read');
    expect(feedback).toMatchObject({
      kind: 'complaint',
      feedbackType: 'abuse',
      recipients: ['complaint@simulator.amazonses.com'],
      mailId: 'mail_x',
      mailKind: undefined,
    });
    expect(suppressionsOf(feedback, NOW)).toEqual([{ email: 'complaint@simulator.amazonses.com', reason: 'complaint', detail: 'abuse', at: NOW }]);
    const notSpam = mailFeedbackOf(JSON.stringify({ ...complaint, complaint: { ...complaint.complaint, complaintFeedbackType: 'not-spam' } }));
    expect(notSpam && suppressionsOf(notSpam, NOW)).toEqual([]);
    const noType = mailFeedbackOf(JSON.stringify({ ...complaint, complaint: { complainedRecipients: [{ emailAddress: 'c@x.example' }] } }));
    expect(noType && suppressionsOf(noType, NOW).map((s) => s.detail)).toEqual(['unspecified']);
  });

  it('other events record nothing; what is no SES event at all is undefined (dropped with a log line)', () => {
    const delivery = mailFeedbackOf(JSON.stringify({ eventType: 'Delivery', mail: {}, delivery: {} }));
    expect(delivery).toEqual({ kind: 'other', eventType: 'Delivery' });
    expect(delivery && suppressionsOf(delivery, NOW)).toEqual([]);
    for (const body of [
      'not json',
      '[]',
      '{}',
      JSON.stringify({ Type: 'Notification', Message: 'not json' }),
      JSON.stringify({ Type: 'SubscriptionConfirmation', Message: 'x' }),
    ]) {
      expect(mailFeedbackOf(body), body).toBeUndefined();
    }
    expect(sesEventOf(JSON.stringify({ Type: 'Notification', Message: '{"eventType":"Send"}' }))).toEqual({ eventType: 'Send' });
  });
});
