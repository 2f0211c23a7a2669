import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export type MailEndpoint = { endpoint: string; dir: string; stop: () => Promise<void> };

/** A message as the stand-in keeps it (one JSON file per message under the mail directory). */
export type KeptMail = {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  at: string;
  /** The configuration set it was sent through, and its e-mail tags (issue 44). */
  configurationSet?: string;
  tags?: Record<string, string>;
};

/** Where the stand-in publishes an SES event: SNS's envelope (a Notification whose Message is the event's JSON), as the subscribed queue receives it. */
export type SesEventSink = (snsEnvelope: string) => Promise<void>;

export type MailEndpointOptions = {
  /**
   * The configuration set with an event destination (the stack's: LOCAL_MAIL_CONFIGURATION_SET). A send
   * naming it publishes the mailbox simulator's bounces and complaints; one naming another set is
   * refused (NotFoundException), as SES refuses a configuration set that does not exist.
   */
  configurationSet?: string;
  /** The sink of the configuration set's events, read at each event (the feedback queue exists after the endpoint starts). */
  events?: () => SesEventSink | undefined;
};

/** SES's mailbox simulator (simulator.amazonses.com): what each of its addresses makes SES report (a `+label` is allowed). */
export const MAILBOX_SIMULATOR_DOMAIN = 'simulator.amazonses.com';
type Simulated = { event: 'Bounce'; bounceType: 'Permanent' | 'Transient'; bounceSubType: string } | { event: 'Complaint' };
const SIMULATOR: Readonly<Record<string, Simulated>> = {
  // A hard bounce: the receiving server answers 550 5.1.1 (unknown user).
  bounce: { event: 'Bounce', bounceType: 'Permanent', bounceSubType: 'General' },
  // The address on the account's suppression list: SES does not send, and reports a hard bounce.
  suppressionlist: { event: 'Bounce', bounceType: 'Permanent', bounceSubType: 'OnAccountSuppressionList' },
  // An out-of-office auto-reply: the simulator reports it as a soft (Transient) bounce.
  ooto: { event: 'Bounce', bounceType: 'Transient', bounceSubType: 'General' },
  // Delivered, then marked as spam by its recipient.
  complaint: { event: 'Complaint' },
};

/**
 * The SES sandbox, played for one reserved domain (RFC 2606's `.example`): a recipient there is an
 * unverified address, which SES refuses while the account is in the sandbox (MessageRejected, "Email
 * address is not verified"). Every other recipient is treated as verified.
 */
export const SANDBOX_UNVERIFIED_DOMAIN = 'unverified.example';

/** What the mailbox simulator reports for an address, if it is one of its own. */
export function simulatedOutcome(address: string): Simulated | undefined {
  const [local = '', domain = ''] = address.trim().toLowerCase().split('@');
  if (domain !== MAILBOX_SIMULATOR_DOMAIN) return undefined;
  return SIMULATOR[local.split('+')[0] ?? ''];
}

/** The SES event (event publishing's format) of one simulated outcome. */
export function simulatedEvent(outcome: Simulated, recipient: string, mail: KeptMail, configurationSet: string): Record<string, unknown> {
  const tags: Record<string, string[]> = { 'ses:configuration-set': [configurationSet] };
  for (const [name, value] of Object.entries(mail.tags ?? {})) tags[name] = [value];
  const common = {
    mail: { timestamp: mail.at, source: mail.from, sendingAccountId: '123456789012', messageId: mail.messageId, destination: mail.to, tags },
  };
  const timestamp = new Date().toISOString();
  const feedbackId = `local-${randomUUID()}`;
  if (outcome.event === 'Complaint') {
    return {
      eventType: 'Complaint',
      complaint: {
        complainedRecipients: [{ emailAddress: recipient }],
        timestamp,
        feedbackId,
        complaintFeedbackType: 'abuse',
        userAgent: 'local mailbox simulator',
      },
      ...common,
    };
  }
  const hard = outcome.bounceType === 'Permanent';
  return {
    eventType: 'Bounce',
    bounce: {
      bounceType: outcome.bounceType,
      bounceSubType: outcome.bounceSubType,
      bouncedRecipients: [
        hard ? { emailAddress: recipient, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' } : { emailAddress: recipient },
      ],
      timestamp,
      feedbackId,
      reportingMTA: 'dsn; local.smtp-out.amazonses.com',
    },
    ...common,
  };
}

/** SNS's envelope of a message published to the feedback topic (no raw message delivery). */
export function snsEnvelope(event: object): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: 'arn:aws:sns:us-east-1:123456789012:payment-gateway-local-mail-feedback',
    Message: JSON.stringify(event),
    Timestamp: new Date().toISOString(),
    SignatureVersion: '1',
    Signature: 'local',
  });
}

/**
 * A loopback stand-in for Amazon SES (v2): answers SendEmail (`POST /v2/email/outbound-emails`, the call
 * the mail worker makes) by keeping the message as a JSON file under `dir` (`.local/mail/`), so the real
 * @aws-sdk/client-sesv2 code runs locally and a person (or a test) reads what would have been sent. It
 * refuses what SES refuses for a simple message: no sender, no recipient or more than 50, no subject, a
 * configuration set that does not exist. Sent through the configuration set, a message to one of the
 * mailbox simulator's addresses (bounce@, complaint@, ooto@, suppressionlist@simulator.amazonses.com,
 * `+label` allowed) is followed by its SES event, published as SNS publishes it to the feedback queue.
 * A recipient at SANDBOX_UNVERIFIED_DOMAIN is refused as the SES sandbox refuses an unverified one.
 */
export async function startMailEndpoint(dir: string, port = 0, options: MailEndpointOptions = {}): Promise<MailEndpoint> {
  mkdirSync(dir, { recursive: true });
  const publish = (mail: KeptMail, configurationSet: string) => {
    for (const recipient of mail.to) {
      const outcome = simulatedOutcome(recipient);
      const sink = options.events?.();
      if (!outcome || !sink) continue;
      sink(snsEnvelope(simulatedEvent(outcome, recipient.trim().toLowerCase(), mail, configurationSet))).catch((err: unknown) =>
        console.error(JSON.stringify({ level: 'ERROR', message: 'local SES: event not published', error: err instanceof Error ? err.message : String(err) })),
      );
    }
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown, errorType?: string) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}) });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v2/email/outbound-emails') {
        return reply(404, { message: 'Only SendEmail is served locally' }, 'NotFoundException');
      }
      let input: {
        FromEmailAddress?: unknown;
        Destination?: { ToAddresses?: unknown };
        Content?: { Simple?: { Subject?: { Data?: unknown }; Body?: { Text?: { Data?: unknown } } } };
        ConfigurationSetName?: unknown;
        EmailTags?: unknown;
      };
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof input;
      } catch {
        return reply(400, { message: 'Body is not JSON' }, 'BadRequestException');
      }
      const to = Array.isArray(input.Destination?.ToAddresses) ? input.Destination.ToAddresses.filter((a): a is string => typeof a === 'string') : [];
      const subject = input.Content?.Simple?.Subject?.Data;
      const text = input.Content?.Simple?.Body?.Text?.Data;
      if (typeof input.FromEmailAddress !== 'string' || to.length === 0 || to.length > 50 || typeof subject !== 'string' || typeof text !== 'string') {
        return reply(400, { message: 'A simple message needs FromEmailAddress, 1 to 50 ToAddresses, a subject and a text body' }, 'BadRequestException');
      }
      const unverified = to.filter((address) => address.trim().toLowerCase().endsWith(`@${SANDBOX_UNVERIFIED_DOMAIN}`));
      if (unverified.length > 0) {
        return reply(
          400,
          { message: `Email address is not verified. The following identities failed the check in region US-EAST-1: ${unverified.join(', ')}` },
          'MessageRejected',
        );
      }
      const configurationSet = typeof input.ConfigurationSetName === 'string' ? input.ConfigurationSetName : undefined;
      if (configurationSet !== undefined && configurationSet !== options.configurationSet) {
        return reply(404, { message: `Configuration set <${configurationSet}> does not exist.` }, 'NotFoundException');
      }
      const tags = Array.isArray(input.EmailTags)
        ? Object.fromEntries(
            input.EmailTags.flatMap((tag: unknown) => {
              const { Name, Value } = (tag ?? {}) as { Name?: unknown; Value?: unknown };
              return typeof Name === 'string' && typeof Value === 'string' ? [[Name, Value]] : [];
            }),
          )
        : undefined;
      const messageId = `local-${randomUUID()}`;
      const at = new Date().toISOString();
      const kept: KeptMail = {
        messageId,
        from: input.FromEmailAddress,
        to,
        subject,
        text,
        at,
        ...(configurationSet ? { configurationSet } : {}),
        ...(tags ? { tags } : {}),
      };
      writeFileSync(join(dir, `${at.replace(/[:.]/g, '-')}-${messageId}.json`), `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
      reply(200, { MessageId: messageId });
      // SES reports a bounce or a complaint after it accepted the message: only through a configuration set with a destination.
      if (configurationSet) setImmediate(() => publish(kept, configurationSet));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${bound}`, dir, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
