import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware } from '@smithy/types';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type WebhookMessage, webhookSender } from '../../functions/workers/webhook-sender';
import { newEvent } from '../../shared/platform/outbox-event';
import { getSqs } from '../../shared/adapters/sqs/client';
import { getRuntime, overrideRuntime, type Runtime } from '../../shared/wiring/runtime';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import { newWebhookSecret, sealWebhookSecret } from '../../shared/platform/webhook-secret';
import { accountStore, newAccount, useLocalStackEnvironment } from '../support/api';
import { type FaultInjector, installFaultInjector } from '../support/fault-injection';
import { listedItems } from '../support/ledger';
import { type Behaviour, type Receiver, startReceiver } from '../support/webhook-receiver';
import { sqsEvent } from '../support/sqs-event';
import { putEventUnderTest } from '../support/events-under-test';

/**
 * The webhook sender under faults, in this process against the local table and a queue of its own:
 * the same message handed over twice at once, receivers that are slow, reset the connection, redirect
 * or fail, and a sender that dies in the middle of an attempt. The sender's DNS is the runtime's
 * port (`localhost` → the receiver's loopback address, which the tests' certificate covers), its
 * clock is fixed and moved by hand, and its POST limit is shortened for the slow receiver.
 */

const FIRST_WAIT_SECONDS = 60; // spec 6.5: the first retry comes 1 minute after a failed attempt
const LEASE_SECONDS = 60; // the attempt's claim (docs/architecture.md, webhook delivery)
const SHORT_POST_MS = 400; // the slow receiver's limit here; production's is 10 s

let base: Runtime;
let injector: FaultInjector;
let now = new Date();
let receiverIp = '127.0.0.1';
let queueUrl = '';
/** Messages the sender scheduled on the queue (the next attempt, or the next hop of a wait). */
const scheduled: { message: WebhookMessage; delaySeconds: number }[] = [];
const servers: { close: () => Promise<void> }[] = [];
let nextIp = 1;

const send = webhookSender({ post: { totalTimeoutMs: SHORT_POST_MS, connectTimeoutMs: SHORT_POST_MS } });

const recordScheduled: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => async (args) => {
  const input = args.input as { QueueUrl?: string; MessageBody?: string; DelaySeconds?: number };
  const message =
    context.commandName === 'SendMessageCommand' && input.QueueUrl === queueUrl ? (JSON.parse(String(input.MessageBody)) as WebhookMessage) : undefined;
  // The sender's own sends all carry a due time (the tests' first message does not).
  if (message?.notBefore !== undefined) scheduled.push({ message, delaySeconds: Number(input.DelaySeconds ?? 0) });
  if (context.commandName === 'ChangeMessageVisibilityCommand') throw new Error('the sender must never wait on visibility');
  return next(args);
};

beforeAll(async () => {
  useLocalStackEnvironment();
  base = getRuntime();
  injector = installFaultInjector(base.db);
  const sqs = getSqs();
  sqs.middlewareStack.add(recordScheduled, { step: 'initialize', name: 'recordScheduled' });
  // Messages come back only when the sender asks: the queue's own visibility timeout is the longest there is.
  const created = await sqs.send(new CreateQueueCommand({ QueueName: `webhook-faults-${Date.now()}`, Attributes: { VisibilityTimeout: '43200' } }));
  queueUrl = String(created.QueueUrl);
  overrideRuntime({
    config: { ...base.config, webhooks: { ...base.config.webhooks, queueUrl, retryScale: 1, allowPrivateHosts: ['localhost'] } },
    resolve: async (host) => (host === 'localhost' ? [receiverIp] : []),
    clock: { now: () => now },
  });
});

afterEach(() => {
  now = new Date();
});

afterAll(async () => {
  injector.remove();
  getSqs().middlewareStack.remove('recordScheduled');
  overrideRuntime({ ...base });
  await Promise.all(servers.map((s) => s.close()));
  await getSqs().send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
});

/** A receiver of its own on a fresh loopback address, reached as https://localhost:8443/hooks. */
async function receiver(behaviour?: Behaviour): Promise<Receiver> {
  const ip = `127.0.91.${nextIp}`;
  nextIp += 1;
  const r = await startReceiver(ip, behaviour);
  servers.push(r);
  receiverIp = ip;
  return r;
}

/** A receiver that resets the connection (a TCP RST) as soon as a request arrives over TLS; counts the requests. */
async function resettingReceiver(): Promise<{ requests: number }> {
  const ip = `127.0.91.${nextIp}`;
  nextIp += 1;
  const { certPath, keyPath } = inject('webhookCertificate');
  const [cert, key] = [readFileSync(certPath), readFileSync(keyPath)];
  const seen = { requests: 0 };
  const sockets = new Set<Socket>();
  const server = createNetServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => undefined);
    const secure = new TLSSocket(raw, { isServer: true, cert, key });
    secure.on('error', () => undefined);
    secure.once('data', () => {
      seen.requests += 1;
      raw.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(8443, ip, () => resolve());
  });
  servers.push({
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  receiverIp = ip;
  return seen;
}

const store = () => accountStore();

/** An account whose webhook is https://localhost:8443/hooks, one event of it, and that event's queue message (received once). */
async function pendingEvent(): Promise<{ eventId: string; accountId: string; event: SQSEvent; record: SQSRecord }> {
  const s = store();
  const account = await newAccount();
  const sealed = sealWebhookSecret(newWebhookSecret(), account.account_id, (await base.serviceKeys()).webhookSecrets);
  await s.db.send(
    new UpdateCommand({
      TableName: s.table,
      Key: keys.account(account.account_id),
      UpdateExpression: 'SET webhookUrl = :u, webhookSecretSealed = :s',
      ExpressionAttributeValues: { ':u': 'https://localhost:8443/hooks', ':s': sealed },
    }),
  );
  const event = newEvent('ping', { message: 'fault test' }, now);
  await putEventUnderTest(account.account_id, event);
  const sqs = getSqs();
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ eventId: event.id }) }));
  const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 5 }));
  const message = received.Messages?.[0];
  if (!message || message.Body !== JSON.stringify({ eventId: event.id })) throw new Error(`unexpected message ${JSON.stringify(received.Messages)}`);
  const record: SQSRecord = {
    messageId: String(message.MessageId),
    receiptHandle: String(message.ReceiptHandle),
    body: String(message.Body),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: String(message.MD5OfBody),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:webhook-faults',
    awsRegion: 'us-east-1',
  };
  return { eventId: event.id, accountId: account.account_id, event: { Records: [record] }, record };
}

async function deliveryRecord(eventId: string): Promise<Item | undefined> {
  const s = store();
  return (await s.db.send(new GetCommand({ TableName: s.table, Key: keys.delivery(eventId), ConsistentRead: true }))).Item;
}

const at = (seconds: number, from: Date) => new Date(from.getTime() + seconds * 1000);
/** What the sender scheduled for this event, in order. */
const scheduledFor = (eventId: string) => scheduled.filter((s) => s.message.eventId === eventId);
/** The queue handing a message over (a fresh SQS record with that body). */
function handOver(message: WebhookMessage): SQSEvent {
  return sqsEvent([JSON.stringify(message)], 'webhook-faults');
}

describe('the same SQS message handed to the sender twice at once', () => {
  it('while one attempt holds the claim, the other sends nothing and comes back when the lease ends; one attempt counted, one success recorded', async () => {
    const r = await receiver();
    const { eventId, event, record } = await pendingEvent();
    const started = now;
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    // The first run claims the attempt; its claim has landed but it has not POSTed yet.
    const first = injector.run(
      {
        at: { command: 'UpdateItemCommand', nth: 0 },
        holdUntil: new Promise<void>((resolve) => {
          release = resolve;
        }),
        onHold: held,
      },
      () => send(event),
    );
    await holding;
    const second = await send(event);
    // It sends nothing and comes back (a delayed copy of itself) when the lease ends.
    expect(second.batchItemFailures).toEqual([]);
    expect(scheduledFor(eventId)).toEqual([{ message: { eventId, notBefore: at(LEASE_SECONDS, started).toISOString() }, delaySeconds: LEASE_SECONDS }]);
    expect(r.received).toHaveLength(0);
    release();
    const done = await first;
    expect(done.outcome).toEqual({ kind: 'returned', value: { batchItemFailures: [] } });
    expect(r.received).toHaveLength(1);
    expect(await deliveryRecord(eventId)).toMatchObject({ status: 'succeeded', attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect((await deliveryRecord(eventId))?.claimUntil).toBeUndefined();
    // The duplicate comes back after the lease: nothing left to do, nothing scheduled.
    now = at(LEASE_SECONDS + 1, started);
    expect((await send(handOver(scheduledFor(eventId)[0]?.message ?? { eventId }))).batchItemFailures).toEqual([]);
    expect(r.received).toHaveLength(1);
    expect(scheduledFor(eventId)).toHaveLength(1);
    expect(record.messageId).toBeDefined();
  });

  it('three copies at once against a failing receiver: one POST, one attempt counted, retried on the schedule', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const { eventId, accountId, event } = await pendingEvent();
    const results = await Promise.all([send(event), send(event), send(event)]);
    for (const result of results) expect(result.batchItemFailures).toHaveLength(0);
    expect(r.received).toHaveLength(1);
    // One message for attempt 2, due in 1 minute; the two copies that lost the claim come back after it (then drop as stale).
    const next = scheduledFor(eventId).filter((s) => s.message.attempt === 2);
    expect(next).toEqual([{ message: { eventId, attempt: 2, notBefore: at(FIRST_WAIT_SECONDS, now).toISOString() }, delaySeconds: FIRST_WAIT_SECONDS }]);
    expect(await deliveryRecord(eventId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
      nextAttemptAt: at(FIRST_WAIT_SECONDS, now).toISOString(),
    });
    expect(await listedItems(keys.deliveryListPartition(accountId))).toHaveLength(1);
  });
});

type Failure = { name: string; start: () => Promise<() => number>; lastStatus: number | null; lastError: RegExp };

const failures: Failure[] = [
  {
    name: 'slower than the POST limit',
    start: async () => {
      const r = await receiver(() => 'hang');
      return () => r.received.length;
    },
    lastStatus: null,
    lastError: /^timed out after 0\.4 s$/,
  },
  {
    name: 'resetting the connection',
    start: async () => {
      const r = await resettingReceiver();
      return () => r.requests;
    },
    lastStatus: null,
    lastError: /ECONNRESET|socket hang up/,
  },
  {
    name: 'answering 302',
    start: async () => {
      const r = await receiver(() => ({ status: 302, location: 'https://localhost:8443/elsewhere' }));
      return () => r.received.length;
    },
    lastStatus: 302,
    lastError: /^redirect not followed \(302\)$/,
  },
  {
    name: 'answering 500',
    start: async () => {
      const r = await receiver(() => ({ status: 500 }));
      return () => r.received.length;
    },
    lastStatus: 500,
    lastError: /^HTTP 500$/,
  },
];

describe('receivers that fail: retried on the schedule', () => {
  it.each(failures)('a receiver $name → pending, attempts 1, its status and error, the next attempt 1 minute later and not before', async (failure) => {
    const requests = await failure.start();
    const { eventId, event, record } = await pendingEvent();
    const first = now;
    expect((await send(event)).batchItemFailures).toEqual([]);
    expect(requests()).toBe(1);
    const due = at(FIRST_WAIT_SECONDS, first);
    expect(await deliveryRecord(eventId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: failure.lastStatus,
      lastError: expect.stringMatching(failure.lastError),
      nextAttemptAt: due.toISOString(),
    });
    // The next attempt is a delayed message (not a message held in flight), due at the record's next attempt.
    expect(scheduledFor(eventId)).toEqual([{ message: { eventId, attempt: 2, notBefore: due.toISOString() }, delaySeconds: FIRST_WAIT_SECONDS }]);
    const second = scheduledFor(eventId)[0]?.message ?? { eventId };
    // The first message handed over again (a duplicate): its attempt is recorded, it is dropped.
    now = at(FIRST_WAIT_SECONDS / 2, first);
    expect((await send(event)).batchItemFailures).toEqual([]);
    expect(requests()).toBe(1);
    // The second attempt's message handed over early (a queue that returned it sooner): nothing is sent, it waits again.
    expect((await send(handOver(second))).batchItemFailures).toEqual([]);
    expect(requests()).toBe(1);
    expect(scheduledFor(eventId).at(-1)).toEqual({ message: second, delaySeconds: FIRST_WAIT_SECONDS / 2 });
    // On time: the second attempt, and the schedule's second wait (5 minutes).
    now = due;
    expect((await send(handOver(second))).batchItemFailures).toEqual([]);
    expect(requests()).toBe(2);
    expect(await deliveryRecord(eventId)).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: at(5 * 60, due).toISOString() });
    expect(scheduledFor(eventId).at(-1)).toEqual({ message: { eventId, attempt: 3, notBefore: at(5 * 60, due).toISOString() }, delaySeconds: 5 * 60 });
    expect(record.messageId).toBeDefined();
  });
});

describe('a sender that dies in the middle of an attempt', () => {
  it('after the POST, before the record: the lease runs out, the retry attempts again, one delivery recorded (at least once)', async () => {
    const r = await receiver();
    const { eventId, accountId, event, record } = await pendingEvent();
    const started = now;
    const crashed = await injector.run({ at: { command: 'UpdateItemCommand', nth: 1 }, kind: 'crash-before-send' }, () => send(event));
    expect(crashed.outcome.kind).toBe('crashed');
    expect(r.received).toHaveLength(1);
    const left = await deliveryRecord(eventId);
    expect(left).toMatchObject({ status: 'pending', attempts: 0, claimUntil: at(LEASE_SECONDS, started).toISOString() });
    expect(await listedItems(keys.deliveryListPartition(accountId))).toHaveLength(0);
    // Handed over again while the lease holds (the dead attempt might still be running): nothing sent.
    now = at(LEASE_SECONDS - 10, started);
    expect((await send(event)).batchItemFailures).toEqual([]);
    expect(scheduledFor(eventId)).toEqual([{ message: { eventId, notBefore: at(LEASE_SECONDS, started).toISOString() }, delaySeconds: 10 }]);
    expect(r.received).toHaveLength(1);
    expect(record.messageId).toBeDefined();
    // The lease has run out: attempted again, and recorded once.
    now = at(LEASE_SECONDS + 1, started);
    expect((await send(event)).batchItemFailures).toEqual([]);
    expect(r.received).toHaveLength(2);
    expect(new Set(r.received.map((x) => x.headers['service-event-id']))).toEqual(new Set([eventId]));
    const final = await deliveryRecord(eventId);
    expect(final).toMatchObject({ status: 'succeeded', attempts: 1, lastStatus: 200 });
    expect(final?.claimUntil).toBeUndefined();
    expect(await listedItems(keys.deliveryListPartition(accountId))).toHaveLength(1);
  });
});

describe('the whole retry schedule at scale 1, on SQS delays under AWS limits', () => {
  it('8 attempts at 0, 1, 6, 21, 81, 261, 621 and 1341 minutes (22.35 h), every wait a chain of delays of at most 900 s, none in flight', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const { eventId, event } = await pendingEvent();
    const first = now;
    const attemptsAt: number[] = [];
    let handOvers = 0;
    let result = await send(event);
    for (;;) {
      expect(result.batchItemFailures).toEqual([]);
      const record = await deliveryRecord(eventId);
      if (Number(record?.attempts) > attemptsAt.length) {
        attemptsAt.push((now.getTime() - first.getTime()) / 60_000);
        // The record's next attempt is the time the chain of delays leads to.
        const next = scheduledFor(eventId).at(-1);
        if (record?.status === 'pending') expect(next?.message.notBefore).toBe(record.nextAttemptAt);
      }
      if (record?.status !== 'pending') break;
      const next = scheduledFor(eventId).at(-1);
      if (!next) throw new Error('no message scheduled: the chain was lost');
      // AWS refuses longer delays (the limits middleware on this client would throw).
      expect(next.delaySeconds).toBeLessThanOrEqual(900);
      expect(next.delaySeconds).toBeGreaterThan(0);
      now = at(next.delaySeconds, now);
      handOvers += 1;
      result = await send(handOver(next.message));
    }
    expect(attemptsAt).toEqual([0, 1, 6, 21, 81, 261, 621, 1341]);
    expect(r.received).toHaveLength(8);
    expect(await deliveryRecord(eventId)).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null, lastStatus: 500 });
    // 1341 minutes of waits in hops of at most 15 minutes: at least 90 hand-overs, each message deleted when handed over.
    expect(handOvers).toBeGreaterThanOrEqual(Math.ceil((1341 * 60) / 900));
  });
});
