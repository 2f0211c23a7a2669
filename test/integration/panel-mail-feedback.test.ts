import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys';
import { suppressionKey } from '../../shared/adapters/dynamo/mail-suppressions';
import { LOCAL_MAIL_CONFIGURATION_SET } from '../../infra/local/constants';
import { SANDBOX_UNVERIFIED_DOMAIN } from '../../infra/local/mail-endpoint';
import { accountStore, admin, stack } from '../support/api';
import { stackLogFile } from '../support/leak-sources';
import { eventually } from '../support/ledger';
import { eventuallyMailTo, mailTo } from '../support/mail';
import { type Enrolled, enrolledPerson, get, Jar, signIn } from '../support/panel';

/**
 * Issue 44, "Mail feedback", end to end on the local stack: an invite mailed through the SES stand-in
 * (through the configuration set) to one of SES's mailbox simulator addresses, its bounce or complaint
 * event published to the mail feedback queue as SNS delivers it, the feedback worker's suppression, the
 * Equipe page's "não entregue", and the mail worker refusing the next message to that address.
 */
const simulator = (local: string) => `${local}+${randomUUID().slice(0, 8)}@simulator.amazonses.com`;

async function suppression(email: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: suppressionKey(email), ConsistentRead: true }))).Item;
}

const eventuallySuppressed = (email: string) =>
  eventually(
    () => suppression(email),
    (item) => item !== undefined,
    20_000,
    200,
  );

/** The team page's row of a pending invite, by its e-mail. */
async function inviteRow(jar: Jar, email: string): Promise<string> {
  const page = await get(jar, '/panel/equipe');
  expect(page.status).toBe(200);
  const row = [...page.text.matchAll(/<tr data-invite="[^"]+"[^>]*>[\s\S]*?<\/tr>/g)].map((m) => m[0]).find((r) => r.includes(`<td>${email}`));
  if (!row) throw new Error(`no pending invite for ${email}`);
  return row;
}

/** The local stack's JSON log lines from `from` (a length of its log file) on. */
const logFrom = (from: number) =>
  readFileSync(stackLogFile(stack().port), 'utf8')
    .slice(from)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const logLength = () => readFileSync(stackLogFile(stack().port), 'utf8').length;

async function ownerSignedIn(): Promise<{ owner: Enrolled; jar: Jar }> {
  const owner = await enrolledPerson('owner');
  const jar = new Jar();
  expect((await signIn(jar, owner)).status).toBe(303);
  return { owner, jar };
}

const invite = async (accountId: string, email: string) => {
  const invited = await admin('panel', 'invite', '--account', accountId, '--email', email, '--role', 'viewer');
  expect(invited.code, invited.stderr).toBe(0);
};

describe('merchant panel: mail feedback (issue 44)', () => {
  it('an invite to the bounce simulator: a hard bounce, the address suppressed, "não entregue" on the Equipe page, the next mail to it not sent', async () => {
    const { owner, jar } = await ownerSignedIn();
    const bouncing = simulator('bounce');
    await invite(owner.accountId, bouncing);

    // Sent through the configuration set, tagged with the queued message's id.
    const [sent] = await eventuallyMailTo(bouncing);
    expect(sent?.configurationSet).toBe(LOCAL_MAIL_CONFIGURATION_SET);
    expect(sent?.tags).toMatchObject({ mailId: expect.stringMatching(/^mail_/), kind: 'invite' });
    expect(await eventuallySuppressed(bouncing)).toMatchObject({ type: 'mail_suppression', reason: 'bounce', detail: 'Permanent/General' });

    const row = await inviteRow(jar, bouncing);
    expect(row).toContain('data-not-delivered');
    expect(row).toContain('não entregue');

    // A second invite to the address (it replaces the first): its mail is refused, never sent.
    const from = logLength();
    await invite(owner.accountId, bouncing);
    const refused = await eventually(
      () => logFrom(from).filter((line) => String(line.message).startsWith('mail not delivered: its recipient is suppressed')),
      (lines) => lines.length > 0,
      20_000,
      200,
    );
    const mailId = String(refused[0]?.mailId);
    const store = accountStore();
    const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.mail(mailId), ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ kind: 'invite', status: 'suppressed' });
    expect(item?.bodySealed).toBeUndefined();
    expect(item?.messageId).toBeUndefined();
    expect(mailTo(bouncing)).toHaveLength(1);
    expect(await inviteRow(jar, bouncing)).toContain('não entregue');
  }, 120_000);

  it('a complaint suppresses its address; a soft bounce (the out-of-office simulator) does not', async () => {
    const { owner, jar } = await ownerSignedIn();
    const complaining = simulator('complaint');
    const away = simulator('ooto');
    const from = logLength();
    await invite(owner.accountId, complaining);
    await invite(owner.accountId, away);

    expect(await eventuallySuppressed(complaining)).toMatchObject({ reason: 'complaint', detail: 'abuse' });
    expect(await inviteRow(jar, complaining)).toContain('não entregue');

    // The soft bounce's event handled (its log line names the message), and nothing suppressed.
    const [awayMail] = await eventuallyMailTo(away);
    const awayId = awayMail?.tags?.mailId;
    expect(awayId).toMatch(/^mail_/);
    await eventually(
      () => logFrom(from).filter((line) => line.message === 'mail soft bounce: not suppressed' && line.mailId === awayId),
      (lines) => lines.length === 1,
      20_000,
      200,
    );
    expect(await suppression(away)).toBeUndefined();
    const row = await inviteRow(jar, away);
    expect(row).not.toContain('data-not-delivered');
    expect(row).not.toContain('não entregue');
  }, 120_000);

  it('an invite SES refuses (the sandbox: an unverified address): recorded rejected, never retried, "não entregue" on the Equipe page, the address not suppressed', async () => {
    const { owner, jar } = await ownerSignedIn();
    const unverified = `ana+${randomUUID().slice(0, 8)}@${SANDBOX_UNVERIFIED_DOMAIN}`;
    const from = logLength();
    await invite(owner.accountId, unverified);
    const refused = await eventually(
      () => logFrom(from).filter((line) => String(line.message).startsWith('mail not delivered: SES refused it for good')),
      (lines) => lines.length > 0,
      20_000,
      200,
    );
    expect(refused[0]).toMatchObject({ kind: 'invite', outcome: 'rejected' });
    expect(JSON.stringify(refused)).not.toContain(unverified);
    const store = accountStore();
    const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.mail(String(refused[0]?.mailId)), ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ kind: 'invite', status: 'rejected' });
    expect(mailTo(unverified)).toEqual([]);
    const row = await inviteRow(jar, unverified);
    expect(row).toContain('data-not-delivered');
    expect(row).toContain('não entregue');
    // Not a suppression: once the address is verified (or the account leaves the sandbox), a new invite goes out.
    expect(await suppression(unverified)).toBeUndefined();
  }, 120_000);
});
