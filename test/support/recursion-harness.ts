import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll } from 'vitest';
import { localAwsConfig } from '../../infra/local/aws';
import { startQueuePoller, type Poller } from '../../infra/local/pollers';
import { droppedInvocations, propagateChains } from '../../infra/local/recursion';
import { BankUnavailableError, type BankPort } from '../../shared/ports/bank';
import { defaultRegistry } from '../../shared/wiring/provider-registry';
import { getSqs } from '../../shared/adapters/sqs/client';
import { queues } from '../../shared/platform/queues';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { newWithdrawReference } from '../../shared/platform/ids';
import { withdrawalItem } from '../../shared/adapters/dynamo/withdrawals';
import { accountStore, stack, useLocalStackEnvironment } from './api';
import { accountWithWebhookEvent } from './events-under-test';

/**
 * The payout and webhook workers in this process, fed by the local stack's own queue poller (with
 * Lambda's recursive loop rule, infra/local/recursion.ts) from queues of their own, against the local
 * table: their retry schedules run whole, scaled down, hop by hop. The schedules' scales shrink the
 * hops alike (shared/domain/delay-hops.ts maxHopSecondsFor), so a long wait takes many hops, as in AWS.
 * Items are stored under types the local stack's stream forwarder does not forward: only these
 * workers see them.
 */

/** WEBHOOK_RETRY_SCALE of the harness: the spec's 1,335 minutes of waits in about 40 s, hops of 1 s. */
export const WEBHOOK_SCALE = 0.0005;
/** PAYOUT_RETRY_SCALE of the harness: waits of 5 s doubling up to 15 minutes become 10 ms up to 1.8 s, hops of 2 s. */
export const PAYOUT_SCALE = 0.002;

type Handler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export type QueuePair = { url: string; arn: string; dlqUrl: string };

export type Harness = {
  webhooks: QueuePair;
  payouts: QueuePair;
  /** When each webhook attempt of an event was made (its host is looked up once per attempt). */
  attemptTimes: (eventId: string) => number[];
  /** The webhook hosts of the harness's accounts, with the event each one's attempts count for. */
  hosts: Map<string, string>;
  /** Invocations of each consumer (all messages). */
  invocations: { webhooks: number; payouts: number };
  stop: () => Promise<void>;
};

async function queuePair(sqs: SQSClient, name: string, maxReceiveCount: number): Promise<QueuePair> {
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { VisibilityTimeout: '30', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }) },
    }),
  );
  const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
  return { url: queue.QueueUrl ?? '', arn, dlqUrl: dlq.QueueUrl ?? '' };
}

/**
 * Starts both workers behind pollers that apply Lambda's rule with `recursiveLoop` (the queues'
 * setting as shared/platform/queues.ts has it, or `Terminate` to show what AWS's default does).
 */
export async function startRecursionHarness(recursiveLoop: 'Allow' | 'Terminate'): Promise<Harness> {
  useLocalStackEnvironment();
  propagateChains(getSqs());
  const sqs = new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
  const tag = randomUUID().slice(0, 8);
  const webhooks = await queuePair(sqs, `recursion-webhooks-${tag}`, queues.webhooks.maxReceiveCount);
  const payouts = await queuePair(sqs, `recursion-payouts-${tag}`, queues.payouts.maxReceiveCount);
  const runtime = getRuntime();
  const attempts = new Map<string, number[]>();
  const hostEvent = new Map<string, string>();
  overrideRuntime({
    config: {
      ...runtime.config,
      webhooks: { ...runtime.config.webhooks, queueUrl: webhooks.url, retryScale: WEBHOOK_SCALE },
      payouts: { ...runtime.config.payouts, queueUrl: payouts.url, dlqUrl: payouts.dlqUrl, retryScale: PAYOUT_SCALE, retryWindowSeconds: 600 },
    },
    // Each attempt looks its host up first; no host of the harness resolves, so every attempt fails at once.
    resolve: async (host) => {
      const eventId = hostEvent.get(host);
      if (eventId) attempts.set(eventId, [...(attempts.get(eventId) ?? []), Date.now()]);
      return [];
    },
  });
  const webhookSender = (await import('../../functions/workers/webhook-sender')).handler as Handler;
  const payoutWorker = (await import('../../functions/workers/payout')).handler as Handler;
  const invocations = { webhooks: 0, payouts: 0 };
  const counted = (name: keyof typeof invocations, handler: Handler) => async (event: unknown) => {
    invocations[name] += 1;
    return handler(event as SQSEvent);
  };
  const pollers: Poller[] = [
    startQueuePoller(sqs, webhooks.url, webhooks.arn, {
      id: queues.webhooks.id,
      handler: counted('webhooks', webhookSender),
      recursiveLoop,
      dlqUrl: webhooks.dlqUrl,
    }),
    startQueuePoller(sqs, payouts.url, payouts.arn, {
      id: queues.payouts.id,
      handler: counted('payouts', payoutWorker),
      recursiveLoop,
      dlqUrl: payouts.dlqUrl,
    }),
  ];
  return {
    webhooks,
    payouts,
    hosts: hostEvent,
    attemptTimes: (eventId) => attempts.get(eventId) ?? [],
    invocations,
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()));
      overrideRuntime({ config: runtime.config, resolve: runtime.resolve });
      for (const pair of [webhooks, payouts]) {
        await sqs.send(new DeleteQueueCommand({ QueueUrl: pair.url }));
        await sqs.send(new DeleteQueueCommand({ QueueUrl: pair.dlqUrl }));
      }
    },
  };
}

/** An account whose webhook host never resolves, one event of it, and its first message on the harness's webhook queue. */
/** One harness for a test file: started before its tests, stopped after them; the function returns it. */
export function useRecursionHarness(recursiveLoop: 'Allow' | 'Terminate'): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startRecursionHarness(recursiveLoop);
  }, 60_000);
  afterAll(async () => {
    await harness?.stop();
  });
  return () => {
    if (!harness) throw new Error('The recursion harness has not started');
    return harness;
  };
}

export async function failingWebhookEvent(harness: Harness): Promise<string> {
  const host = `unresolvable-${randomUUID().slice(0, 8)}.test`;
  const { eventId } = await accountWithWebhookEvent(`https://${host}/hooks`, 'recursion harness');
  harness.hosts.set(host, eventId);
  // As the stream forwarder would: a message sent outside any invocation of the sender.
  await getSqs().send(new SendMessageCommand({ QueueUrl: harness.webhooks.url, MessageBody: JSON.stringify({ eventId }) }));
  return eventId;
}

/** A bank that fails the first `failures` requests of each withdraw (an outage), then accepts; registered under a name of its own. */
export function outageBank(failures: number): { name: string; requests: Map<string, number> } {
  const name = `outage-${randomUUID().slice(0, 8)}`;
  const requests = new Map<string, number>();
  const bank: BankPort = {
    name,
    async requestPayout(request) {
      const n = (requests.get(request.reference) ?? 0) + 1;
      requests.set(request.reference, n);
      if (n <= failures) throw new BankUnavailableError(`outage: request ${n} of ${failures} failing`);
    },
  };
  defaultRegistry.registerBank(name, () => bank);
  return { name, requests };
}

/** A PENDING withdraw paid by `bankName`, and its first message on the harness's payout queue. */
export async function pendingWithdrawal(harness: Harness, bankName: string): Promise<string> {
  const store = accountStore();
  const reference = newWithdrawReference();
  const createdAt = new Date().toISOString();
  const item = withdrawalItem(
    {
      status: 'PENDING',
      accountId: `acct_test_${randomUUID()}`,
      reference,
      amountCents: 1_000,
      feeCents: 0,
      pixkey: 'maria@example.com',
      keytype: 'EMAIL',
      createdAt,
    },
    (await getRuntime().serviceKeys()).personalData,
  );
  // In a sweep partition no sweep reads: the local stack's sweep never forwards it to its own payout queue.
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...item, bank: bankName, type: 'withdraw-under-test', GSI2PK: 'SWEEP-TEST#recursion', GSI2SK: `${createdAt}#${reference}` },
    }),
  );
  await getSqs().send(new SendMessageCommand({ QueueUrl: harness.payouts.url, MessageBody: JSON.stringify({ reference }) }));
  return reference;
}

export async function itemOf(key: Record<string, string>): Promise<Record<string, unknown> | undefined> {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }))).Item;
}

/** The bodies waiting in a DLQ (received and left there: they become visible again after 30 s). */
export async function dlqBodies(url: string): Promise<unknown[]> {
  const out = await getSqs().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 30 }));
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body ?? 'null') as unknown);
}

/** Polls until `check` holds (generous: CI is a busy 2-core machine). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('condition not met in time');
}

export { droppedInvocations };
