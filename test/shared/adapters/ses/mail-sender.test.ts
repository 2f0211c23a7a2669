import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalReason, sesMailSender } from '../../../../shared/adapters/ses/mail-sender';

/**
 * The SES adapter against a stand-in that answers as SES v2 does: the request it sends (configuration
 * set, tags), and which refusals are for good (recorded not delivered) and which throw (retried).
 */
let server: Server;
const received: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Destination: { ToAddresses: string[] } };
      received.push(input);
      const to = input.Destination.ToAddresses[0] ?? '';
      const refuse = (status: number, type: string, message: string) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type });
        res.end(JSON.stringify({ message }));
      };
      if (to.startsWith('unverified'))
        return refuse(400, 'MessageRejected', `Email address is not verified. The following identities failed the check in region US-EAST-1: ${to}`);
      if (to.startsWith('suspended')) return refuse(400, 'AccountSuspendedException', 'The account is suspended.');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ MessageId: 'ses-message-1' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const mail = (to: string) => ({ to, subject: 'Convite', text: 'link', mailId: 'mail_AbC1', kind: 'invite' as const });

describe('the SES sender (shared/adapters/ses/mail-sender.ts)', () => {
  it('sends through the configuration set, tagged with the queued message’s id and kind: SES’s message id', async () => {
    received.length = 0;
    expect(await sesMailSender('painel@pay.example', 'panel-mail')(mail('ana@example.com'))).toEqual({ outcome: 'sent', messageId: 'ses-message-1' });
    expect(received[0]).toMatchObject({
      FromEmailAddress: 'painel@pay.example',
      Destination: { ToAddresses: ['ana@example.com'] },
      ConfigurationSetName: 'panel-mail',
      EmailTags: [
        { Name: 'mailId', Value: 'mail_AbC1' },
        { Name: 'kind', Value: 'invite' },
      ],
    });
    // Without a configuration set (a deploy from before issue 44), the message is sent without one.
    received.length = 0;
    await sesMailSender('painel@pay.example', undefined)(mail('ana@example.com'));
    expect(received[0]?.ConfigurationSetName).toBeUndefined();
  });

  it('MessageRejected (the SES sandbox’s unverified recipient) is a refusal for good: rejected, with SES’s words but not the address', async () => {
    const answer = await sesMailSender('painel@pay.example', 'panel-mail')(mail('unverified.person@example.com'));
    expect(answer).toEqual({
      outcome: 'rejected',
      reason: 'MessageRejected: Email address is not verified. The following identities failed the check in region US-EAST-1: <address>',
    });
  });

  it('any other refusal throws (the queue retries it, then the DLQ): a suspended account is not the message’s fault', async () => {
    await expect(sesMailSender('painel@pay.example', 'panel-mail')(mail('suspended@example.com'))).rejects.toMatchObject({ name: 'AccountSuspendedException' });
  });

  it('states a refusal without any address it quotes', () => {
    const err = Object.assign(new Error('rejected for "a.b+c@x.example", <d@y.example>; e@z.example'), { name: 'MessageRejected' });
    expect(refusalReason(err)).toBe('MessageRejected: rejected for "<address>", <<address>>; <address>');
  });
});
