import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailSender } from '../../ports/mail';

let client: SESv2Client | undefined;

/** The container's SES client; locally the loopback stand-in's endpoint (AWS_ENDPOINT_URL_SESV2) is set explicitly. */
function getSes(): SESv2Client {
  client ??= new SESv2Client(process.env.AWS_ENDPOINT_URL_SESV2 ? { endpoint: process.env.AWS_ENDPOINT_URL_SESV2 } : {});
  return client;
}

/** Amazon SES (v2 SendEmail): one plain-text message in UTF-8 from the configured sender (`MAIL_FROM`). */
export function sesMailSender(from: string): MailSender {
  return async (mail) => {
    const out = await getSes().send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [mail.to] },
        Content: { Simple: { Subject: { Data: mail.subject, Charset: 'UTF-8' }, Body: { Text: { Data: mail.text, Charset: 'UTF-8' } } } },
      }),
    );
    if (!out.MessageId) throw new Error('SES accepted the message without a message id');
    return { messageId: out.MessageId };
  };
}
