import { dynamoMailOutbox } from '../adapters/dynamo/mail-outbox';
import { dynamoMailSuppressions } from '../adapters/dynamo/mail-suppressions';
import { sesMailSender } from '../adapters/ses/mail-sender';
import type { MailFeedbackPorts } from '../app/mail/record-feedback';
import type { SendMailPorts } from '../app/mail/send-mail';
import type { Runtime } from './runtime';

/**
 * The mail worker's ports: the queued messages (unsealed with the mail key), SES from MAIL_FROM through
 * the configuration set MAIL_CONFIGURATION_SET (none without MAIL_FROM).
 */
export function mailPorts(runtime: Runtime): SendMailPorts {
  const { config } = runtime;
  return {
    outbox: dynamoMailOutbox(runtime.db, config.tableName, async () => (await runtime.serviceKeys()).mail),
    send: config.mail.from ? sesMailSender(config.mail.from, config.mail.configurationSet) : undefined,
    now: () => new Date(),
  };
}

/** The mail feedback worker's ports: the suppressed addresses (issue 44). */
export function mailFeedbackPorts(runtime: Runtime): MailFeedbackPorts {
  return { suppressions: dynamoMailSuppressions(runtime.db, runtime.config.tableName), now: () => new Date() };
}
