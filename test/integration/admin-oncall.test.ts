import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAwsConfig } from '../../infra/local/aws';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { findLeaks } from '../support/leak-scan';
import { eventually } from '../support/ledger';
import { ROOT } from '../support/local-stack-process';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/** The on-call commands of the operator CLI (`dlq …`, `webhook …`) against the local stack. */
type Run = { code: number; lines: Record<string, unknown>[]; stdout: string; stderr: string };

async function cli(...args: string[]): Promise<Run> {
  const env = { ...process.env, PORT: String(stack().port), DYNAMODB_PORT: String(stack().dynamodbPort), NODE_NO_WARNINGS: '1' };
  let out: { code: number; stdout: string; stderr: string };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'infra/admin/cli.ts', ...args], {
      cwd: ROOT,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    out = { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    out = { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
  const lines = out.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...out, lines };
}

const sqs = () => new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
const queueUrl = async (name: string) => String((await sqs().send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl);

/** Bodies in a queue now, read without taking them (visibility 0), each message once. */
async function bodiesIn(url: string): Promise<string[]> {
  const bodies = new Map<string, string>();
  for (let i = 0; i < 5; i += 1) {
    const out = await sqs().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
    for (const m of out.Messages ?? []) bodies.set(String(m.MessageId), String(m.Body));
  }
  return [...bodies.values()];
}

const depthOf = (run: Run, queue: string) => Number(run.lines.find((l) => l.queue === queue)?.depth);

/** 127.0.0.11: a receiver address of test/support/tls.ts no other test file listens on (webhooks: .2–.7, stream failures: .8–.9). */
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver('127.0.0.11');
});

afterAll(async () => {
  await receiver.close();
});

/** Hex digits 0-9 turned into the letters g-p (the rest kept): an identifier no redaction mistakes for a number. */
function letters(text: string): string {
  return text.replaceAll('-', '').replace(/\d/g, (d) => 'ghijklmnop'.charAt(Number(d)));
}

describe('dlq list, inspect and redrive', () => {
  it('lists every DLQ with its depth; inspect shows a message without secrets and leaves it; redrive moves it back and its consumer takes it', async () => {
    const dlqUrl = await queueUrl('webhooks-dlq');
    // Letters only: a random run of digits could read as a card number or a CPF and be redacted.
    const marker = `evt_dlq${letters(randomUUID())}`;
    const secretish = `whsec_${'a'.repeat(43)}`;
    await sqs().send(
      new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: JSON.stringify({ eventId: marker, attempt: 3, notBefore: new Date().toISOString() }) }),
    );
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: dlqUrl,
        MessageBody: JSON.stringify({ note: `${marker} ${secretish}`, creditcard_number: '4111 1111 1111 1111', cvv: '123' }),
      }),
    );

    const list = await cli('dlq', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.lines.map((l) => l.queue)).toEqual(['payouts', 'webhooks', 'reconcile', 'mail', 'mail-feedback', 'stream-failures']);
    expect(list.lines.find((l) => l.queue === 'webhooks')?.dlq_url).toBe(dlqUrl);
    expect(depthOf(list, 'webhooks')).toBeGreaterThanOrEqual(2);
    for (const line of list.lines) expect(Object.keys(line).sort()).toEqual(['depth', 'dlq_url', 'queue']);

    const inspect = await cli('dlq', 'inspect', '--queue', 'webhooks', '--max', '100');
    expect(inspect.code, inspect.stderr).toBe(0);
    const mine = inspect.lines.find((l) => (l.body as { eventId?: string }).eventId === marker);
    expect(mine).toMatchObject({ body: { eventId: marker, attempt: 3 } });
    expect(typeof mine?.message_id).toBe('string');
    expect(Date.parse(String(mine?.sent_at))).toBeGreaterThan(Date.now() - 120_000);
    expect(Number(mine?.receive_count)).toBeGreaterThanOrEqual(1);
    const redactedLine = inspect.lines.find((l) => JSON.stringify(l.body).includes(marker) && l !== mine);
    expect(redactedLine).toBeDefined();
    expect(findLeaks(inspect.stdout)).toEqual([]);
    expect(inspect.stdout).not.toContain(secretish);
    expect(inspect.stdout).not.toContain('4111');
    // Left in the DLQ, visible at once.
    const still = await bodiesIn(dlqUrl);
    expect(still.filter((b) => b.includes(marker))).toHaveLength(2);

    const redrive = await cli('dlq', 'redrive', '--queue', 'webhooks');
    expect(redrive.code, redrive.stderr).toBe(0);
    expect(redrive.lines).toHaveLength(1);
    expect(redrive.lines[0]?.queue).toBe('webhooks');
    expect(Number(redrive.lines[0]?.moved)).toBeGreaterThanOrEqual(2);
    // Gone from the DLQ; the webhook sender took them from the source queue (unknown events: dropped).
    expect((await bodiesIn(dlqUrl)).filter((b) => b.includes(marker))).toEqual([]);
    const after = await cli('dlq', 'list');
    expect(depthOf(after, 'webhooks')).toBeLessThan(depthOf(list, 'webhooks'));
    const source = await queueUrl('webhooks');
    await eventually(bodiesIn.bind(null, source), (bodies) => !bodies.some((b) => b.includes(marker)), 30_000, 500);
  });

  it('redrives at most --max messages', async () => {
    // Only this file sends to the webhook DLQ (the payout DLQ is the withdrawals tests').
    const dlqUrl = await queueUrl('webhooks-dlq');
    const before = await cli('dlq', 'inspect', '--queue', 'webhooks', '--max', '100');
    const marker = `evt_max${letters(randomUUID())}`;
    for (const n of [1, 2])
      await sqs().send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: JSON.stringify({ eventId: `${marker}${n}`, attempt: 1 }) }));
    const inspect = await cli('dlq', 'inspect', '--queue', 'webhooks', '--max', '100');
    expect(inspect.lines.length).toBe(before.lines.length + 2);
    expect(inspect.lines.filter((l) => String((l.body as { eventId?: string }).eventId).startsWith(marker))).toHaveLength(2);
    const redrive = await cli('dlq', 'redrive', '--queue', 'webhooks', '--max', '1');
    expect(redrive.code, redrive.stderr).toBe(0);
    expect(redrive.lines).toEqual([{ queue: 'webhooks', moved: 1 }]);
    const left = await cli('dlq', 'inspect', '--queue', 'webhooks', '--max', '100');
    expect(left.lines.length).toBe(inspect.lines.length - 1);
    expect((await cli('dlq', 'redrive', '--queue', 'webhooks')).lines).toEqual([{ queue: 'webhooks', moved: left.lines.length }]);
  });

  it('inspects and redrives the mail DLQ like the others (issue 44: `--queue mail` exited 2)', async () => {
    const dlqUrl = await queueUrl('mail-dlq');
    const marker = `mail_${letters(randomUUID())}`;
    await sqs().send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: JSON.stringify({ mailId: marker }) }));
    const inspect = await cli('dlq', 'inspect', '--queue', 'mail', '--max', '100');
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.lines.filter((l) => (l.body as { mailId?: string }).mailId === marker)).toHaveLength(1);
    const redrive = await cli('dlq', 'redrive', '--queue', 'mail', '--max', '1');
    expect(redrive.code, redrive.stderr).toBe(0);
    expect(redrive.lines).toEqual([{ queue: 'mail', moved: 1 }]);
  });

  it("inspects the mail feedback DLQ without the recipients' addresses, and redrives it", async () => {
    const dlqUrl = await queueUrl('mailFeedback-dlq');
    const marker = `mail_${letters(randomUUID())}`;
    const address = `bounced.${letters(randomUUID())}@example.com`;
    const event = {
      eventType: 'Bounce',
      bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: address }], timestamp: new Date().toISOString() },
      mail: { messageId: 'ses-1', destination: [address], tags: { mailId: [marker], kind: ['invite'] } },
    };
    await sqs().send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: JSON.stringify({ Type: 'Notification', Message: JSON.stringify(event) }) }));
    const inspect = await cli('dlq', 'inspect', '--queue', 'mail-feedback', '--max', '100');
    expect(inspect.code, inspect.stderr).toBe(0);
    const mine = inspect.lines.find((l) => (l.body as { mailId?: string }).mailId === marker);
    expect(mine?.body).toMatchObject({ event: 'bounce', bounceType: 'Permanent', mailKind: 'invite', recipients: 1 });
    expect(inspect.stdout).not.toContain(address);
    const redrive = await cli('dlq', 'redrive', '--queue', 'mail-feedback', '--max', '1');
    expect(redrive.code, redrive.stderr).toBe(0);
    expect(redrive.lines).toEqual([{ queue: 'mail-feedback', moved: 1 }]);
  });

  // Twelve CLI processes one after another (each starts Node and tsx): minutes on a loaded 2-core machine.
  it('refuses bad flags with exit 2 and one line on stderr', { timeout: 180_000 }, async () => {
    for (const args of [
      ['dlq', 'inspect'],
      ['dlq', 'inspect', '--queue', 'nope'],
      ['dlq', 'inspect', '--queue', 'webhooks', '--max', '0'],
      ['dlq', 'redrive', '--queue', 'webhooks', '--max', 'lots'],
      ['dlq', 'redrive', '--queue', 'stream-failures', '--max', '0'],
      ['dlq', 'purge', '--queue', 'webhooks'],
      ['dlq', 'list', '--bogus'],
      ['webhook', 'redeliver'],
      ['webhook', 'redeliver', '--event', 'not-an-event'],
      ['webhook', 'deliveries'],
      ['webhook', 'deliveries', '--account', 'acc_x', '--status', 'lost'],
      ['webhook', 'replay', '--event', 'evt_x'],
    ]) {
      const run = await cli(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('webhook redeliver and deliveries', () => {
  it('redelivers an event already delivered: a new series, the same event id and body; deliveries lists it', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url } })).status).toBe(200);
    const ping = await call('POST', '/api/webhook/test', { headers: auth });
    expect(ping.status, ping.text).toBe(202);
    const eventId = (ping.json as { event_id: string }).event_id;
    const mine = () => receiver.received.filter((r) => r.headers['service-event-id'] === eventId);
    await eventually(mine, (list) => list.length >= 1, 30_000, 200);

    const deliveries = async (...extra: string[]) => cli('webhook', 'deliveries', '--account', account.account_id, ...extra);
    const first = await eventually(deliveries, (run) => run.lines[0]?.status === 'succeeded', 30_000, 500);
    expect(first.code, first.stderr).toBe(0);
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatchObject({ event_id: eventId, account_id: account.account_id, type: 'ping', attempts: 1, series: 1, url: receiver.url });
    expect((await deliveries('--status', 'failed')).lines).toEqual([]);

    const redelivered = await cli('webhook', 'redeliver', '--event', eventId);
    expect(redelivered.code, redelivered.stderr).toBe(0);
    expect(redelivered.lines).toEqual([{ event_id: eventId, queued: true }]);
    const received = await eventually(mine, (list) => list.length >= 2, 30_000, 200);
    expect(received).toHaveLength(2);
    expect(received[1]?.body).toBe(received[0]?.body);
    expect(JSON.parse(String(received[1]?.body))).toMatchObject({ id: eventId });

    const second = await eventually(deliveries, (run) => run.lines[0]?.series === 2 && run.lines[0]?.status === 'succeeded', 30_000, 500);
    expect(second.lines).toHaveLength(1);
    expect(second.lines[0]).toMatchObject({ event_id: eventId, status: 'succeeded', attempts: 1, series: 2 });
    expect((await deliveries('--status', 'succeeded')).lines.map((l) => l.event_id)).toEqual([eventId]);
    const store = accountStore();
    const record = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.delivery(eventId), ConsistentRead: true }))).Item;
    expect(record?.redeliveredAt).toEqual(expect.any(String));
    // Nothing more: one redelivery is one attempt (a success ends the series).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(mine()).toHaveLength(2);
  });

  it('fails with exit 1 on an unknown event or account', async () => {
    const unknown = await cli('webhook', 'redeliver', '--event', `evt_${randomUUID().replaceAll('-', '')}`);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^error: Unknown event evt_/);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    const noAccount = await cli('webhook', 'deliveries', '--account', `acc_${randomUUID()}`);
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr).toMatch(/^error: Unknown account/);
  });
});
