import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailFeedbackOf } from '../../../shared/domain/panel/mail-feedback';
import { type MailEndpoint, simulatedOutcome, startMailEndpoint } from '../../../infra/local/mail-endpoint';

/** The SES stand-in's mailbox simulator (issue 44): which addresses report what, and only through the configuration set. */
const published: string[] = [];
let endpoint: MailEndpoint;
let dir: string;
let ses: SESv2Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mail-endpoint-'));
  endpoint = await startMailEndpoint(dir, 0, { configurationSet: 'local-set', events: () => async (body) => void published.push(body) });
  ses = new SESv2Client({ endpoint: endpoint.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
});

afterAll(async () => {
  await endpoint.stop();
  rmSync(dir, { recursive: true, force: true });
});

const send = (to: string, configurationSet?: string) =>
  ses.send(
    new SendEmailCommand({
      FromEmailAddress: 'painel@gateway.localhost',
      Destination: { ToAddresses: [to] },
      Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 't' } } } },
      ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
      EmailTags: [{ Name: 'mailId', Value: 'mail_E1' }],
    }),
  );

const waitFor = async (count: number) => {
  for (let i = 0; i < 100 && published.length < count; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return published;
};

describe('the local SES stand-in’s mailbox simulator (infra/local/mail-endpoint.ts)', () => {
  it('knows SES’s simulator addresses (a +label allowed) and nothing else', () => {
    expect(simulatedOutcome('Bounce+x1@Simulator.AmazonSES.com')).toEqual({ event: 'Bounce', bounceType: 'Permanent', bounceSubType: 'General' });
    expect(simulatedOutcome('suppressionlist@simulator.amazonses.com')).toMatchObject({ bounceType: 'Permanent', bounceSubType: 'OnAccountSuppressionList' });
    expect(simulatedOutcome('ooto@simulator.amazonses.com')).toMatchObject({ bounceType: 'Transient' });
    expect(simulatedOutcome('complaint+a@simulator.amazonses.com')).toEqual({ event: 'Complaint' });
    for (const other of ['success@simulator.amazonses.com', 'bounce@example.com', 'ana@example.com']) expect(simulatedOutcome(other), other).toBeUndefined();
  });

  it('publishes a simulated address’s event, in SNS’s envelope, only for a message sent through the configuration set', async () => {
    published.length = 0;
    await send('bounce+1@simulator.amazonses.com');
    await send('success@simulator.amazonses.com', 'local-set');
    await send('complaint+2@simulator.amazonses.com', 'local-set');
    const [event] = await waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(published).toHaveLength(1);
    expect(JSON.parse(event ?? '{}')).toMatchObject({ Type: 'Notification' });
    expect(mailFeedbackOf(event ?? '')).toMatchObject({ kind: 'complaint', recipients: ['complaint+2@simulator.amazonses.com'], mailId: 'mail_E1' });
  });

  it('refuses a configuration set that does not exist, as SES does', async () => {
    await expect(send('ana@example.com', 'other-set')).rejects.toMatchObject({ name: 'NotFoundException' });
  });
});
