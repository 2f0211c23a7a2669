/**
 * What Amazon SES tells of the panel's mail after it accepted a message (issue 44, "Mail feedback"):
 * bounce and complaint events of the configuration set, published to SNS and read from the mail
 * feedback queue. Pure: the message text in, the feedback and the suppressions it calls for out.
 *
 * The formats are SES's ("Amazon SNS notification contents for Amazon SES" and the event publishing
 * examples): a top-level `eventType` (event publishing) or `notificationType` (identity notifications),
 * `Bounce` with `bounce.bounceType` Permanent | Transient | Undetermined and `bounce.bouncedRecipients`,
 * `Complaint` with `complaint.complainedRecipients` (and `complaintFeedbackType` when the provider
 * sent one), and the `mail` object of the message (SES's message id, the tags it was sent with).
 * SQS receives it inside SNS's envelope (`Type: Notification`, the event as the `Message` text), or
 * bare with raw message delivery: both are read. Unknown fields are ignored (SES may add some).
 */
import { normalizeEmail } from './invite';

/** Why an address is no longer mailed: a hard bounce, or its recipient marked a message as spam. */
export type SuppressionReason = 'bounce' | 'complaint';

/** One address to suppress, as the domain says it: the normalized e-mail (hashed before it is stored), why, and SES's detail. */
export type Suppression = { email: string; reason: SuppressionReason; detail: string; at: string };

/** The feedback of one SES event, as much as the service uses of it. */
export type MailFeedback =
  | {
      kind: 'bounce';
      /** Permanent: a hard bounce (the address does not exist, or SES's suppression list holds it). Transient or Undetermined: a soft one. */
      bounceType: string;
      bounceSubType: string;
      recipients: string[];
      at: string;
      sesMessageId: string | undefined;
      /** The queued message's id and kind, from the tags it was sent with (shared/adapters/ses/mail-sender.ts). */
      mailId: string | undefined;
      mailKind: string | undefined;
    }
  | {
      kind: 'complaint';
      /** The provider's ARF feedback type when it gave one (abuse, fraud, not-spam…); SES's complaintSubType otherwise. */
      feedbackType: string;
      recipients: string[];
      at: string;
      sesMessageId: string | undefined;
      mailId: string | undefined;
      mailKind: string | undefined;
    }
  /** Any other event (Send, Delivery, Reject…): nothing to record. */
  | { kind: 'other'; eventType: string };

/** The e-mail tags the sender names each message with, so the feedback names the queued message it was. */
export const MAIL_TAGS = { mailId: 'mailId', kind: 'kind' } as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** The SES event inside a queue message: SNS's envelope opened (its `Message` is the event's JSON text), or the event itself. */
export function sesEventOf(body: string): Json | undefined {
  const outer = parse(body);
  if (!isObject(outer)) return undefined;
  if (outer.Type === 'Notification' && typeof outer.Message === 'string') {
    const inner = parse(outer.Message);
    return isObject(inner) ? inner : undefined;
  }
  return outer;
}

/** The addresses of a recipients list (`[{ emailAddress }]`), normalized; entries without one are left out. */
function recipientsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const addresses = list.flatMap((entry) => {
    const address = isObject(entry) ? text(entry.emailAddress) : undefined;
    // "Name <address>" is how some providers report it: the address alone.
    const bare = address?.match(/<([^>]+)>/)?.[1] ?? address;
    return bare && bare.includes('@') ? [normalizeEmail(bare)] : [];
  });
  return [...new Set(addresses)];
}

/** A tag's first value from the `mail.tags` map SES sends (`{ "mailId": ["mail_…"] }`). */
function tagOf(mail: Json | undefined, name: string): string | undefined {
  const tags = mail && isObject(mail.tags) ? mail.tags : undefined;
  const values = tags?.[name];
  return Array.isArray(values) ? text(values[0]) : undefined;
}

/**
 * The feedback of one queue message: a bounce or a complaint with its recipients, another event, or
 * undefined when the message is not an SES event at all (malformed: dropped with a log line).
 */
export function mailFeedbackOf(body: string): MailFeedback | undefined {
  const event = sesEventOf(body);
  if (!event) return undefined;
  const type = text(event.eventType) ?? text(event.notificationType);
  if (!type) return undefined;
  const mail = isObject(event.mail) ? event.mail : undefined;
  const common = { sesMessageId: text(mail?.messageId), mailId: tagOf(mail, MAIL_TAGS.mailId), mailKind: tagOf(mail, MAIL_TAGS.kind) };
  if (type === 'Bounce') {
    const bounce = isObject(event.bounce) ? event.bounce : {};
    return {
      kind: 'bounce',
      bounceType: text(bounce.bounceType) ?? 'Undetermined',
      bounceSubType: text(bounce.bounceSubType) ?? 'Undetermined',
      recipients: recipientsOf(bounce.bouncedRecipients),
      at: text(bounce.timestamp) ?? text(mail?.timestamp) ?? '',
      ...common,
    };
  }
  if (type === 'Complaint') {
    const complaint = isObject(event.complaint) ? event.complaint : {};
    return {
      kind: 'complaint',
      feedbackType: text(complaint.complaintFeedbackType) ?? text(complaint.complaintSubType) ?? 'unspecified',
      recipients: recipientsOf(complaint.complainedRecipients),
      at: text(complaint.timestamp) ?? text(mail?.timestamp) ?? '',
      ...common,
    };
  }
  return { kind: 'other', eventType: type };
}

/** A bounce that suppresses its recipients: a hard one (bounceType Permanent, whatever its subtype, SES's own suppression list included). */
export function isHardBounce(feedback: MailFeedback): boolean {
  return feedback.kind === 'bounce' && feedback.bounceType === 'Permanent';
}

/**
 * The addresses a feedback suppresses: every recipient of a hard bounce, every recipient of a
 * complaint (but one its provider reports as "not-spam": the person said the message was wanted).
 * A soft bounce (Transient: a full mailbox, an out-of-office reply; or Undetermined) suppresses
 * nothing: the address exists, a later message may arrive. `now` stands in for a missing timestamp.
 */
export function suppressionsOf(feedback: MailFeedback, now: string): Suppression[] {
  if (feedback.kind === 'other') return [];
  const at = feedback.at || now;
  if (feedback.kind === 'bounce') {
    if (!isHardBounce(feedback)) return [];
    return feedback.recipients.map((email) => ({ email, reason: 'bounce' as const, detail: `${feedback.bounceType}/${feedback.bounceSubType}`, at }));
  }
  if (feedback.feedbackType === 'not-spam') return [];
  return feedback.recipients.map((email) => ({ email, reason: 'complaint' as const, detail: feedback.feedbackType, at }));
}
