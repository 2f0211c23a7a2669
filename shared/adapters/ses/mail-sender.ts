import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { MAIL_TAGS } from '../../domain/panel/mail-feedback';
import type { MailSender } from '../../ports/mail';

let client: SESv2Client | undefined;

/** The container's SES client; locally the loopback stand-in's endpoint (AWS_ENDPOINT_URL_SESV2) is set explicitly. */
function getSes(): SESv2Client {
  client ??= new SESv2Client(process.env.AWS_ENDPOINT_URL_SESV2 ? { endpoint: process.env.AWS_ENDPOINT_URL_SESV2 } : {});
  return client;
}

/**
 * SES v2 refusals that no retry changes, for this message (issue 44): `MessageRejected` (in the SES
 * sandbox, a recipient that is not a verified identity; or content SES will not send). A throttle, an
 * outage, a paused or suspended account, or a sender identity not verified still throw: the queue
 * retries them, then the DLQ (alarmed), since every message fails alike until someone acts.
 */
export const PERMANENT_REFUSALS: ReadonlySet<string> = new Set(['MessageRejected']);

/** An SDK error's name (the service's error type). */
const errorName = (err: unknown): string => (err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : '');

/** SES's words without the addresses it may quote (the reason is logged and stored beside the message). */
export function refusalReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `${errorName(err) || 'Error'}: ${message}`.replace(/[^\s<>(),;:"']+@[^\s<>(),;:"']+/g, '<address>').slice(0, 300);
}

/** SES tag values allow letters, digits, `_ - . @` only (up to 256 characters). */
const tagValue = (value: string) => value.replace(/[^A-Za-z0-9_\-.@]/g, '_').slice(0, 256);

/**
 * Amazon SES (v2 SendEmail): one plain-text message in UTF-8 from the configured sender (`MAIL_FROM`),
 * through the configuration set (`MAIL_CONFIGURATION_SET`: its bounce and complaint events reach the
 * mail feedback queue), tagged with the queued message's id and kind (the events name them back).
 */
export function sesMailSender(from: string, configurationSet: string | undefined): MailSender {
  return async (mail) => {
    try {
      const out = await getSes().send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [mail.to] },
          Content: { Simple: { Subject: { Data: mail.subject, Charset: 'UTF-8' }, Body: { Text: { Data: mail.text, Charset: 'UTF-8' } } } },
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
          EmailTags: [
            { Name: MAIL_TAGS.mailId, Value: tagValue(mail.mailId) },
            { Name: MAIL_TAGS.kind, Value: tagValue(mail.kind) },
          ],
        }),
      );
      if (!out.MessageId) throw new Error('SES accepted the message without a message id');
      return { outcome: 'sent', messageId: out.MessageId };
    } catch (err) {
      if (PERMANENT_REFUSALS.has(errorName(err))) return { outcome: 'rejected', reason: refusalReason(err) };
      throw err;
    }
  };
}
