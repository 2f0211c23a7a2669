import { dynamoMailOutbox } from '../adapters/dynamo/mail-outbox';
import { sesMailSender } from '../adapters/ses/mail-sender';
import type { SendMailPorts } from '../app/mail/send-mail';
import type { Runtime } from '../runtime';

/** The mail worker's ports: the queued messages (unsealed with the mail key), SES from MAIL_FROM (none without it). */
export function mailPorts(runtime: Runtime): SendMailPorts {
  const { config } = runtime;
  return {
    outbox: dynamoMailOutbox(runtime.db, config.tableName, async () => (await runtime.serviceKeys()).mail),
    send: config.mail.from ? sesMailSender(config.mail.from) : undefined,
    now: () => new Date(),
  };
}
