import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { getSqs } from '../../../shared/adapters/sqs/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/workers/webhook-sender';
import { getRuntime, overrideRuntime } from '../../../shared/wiring/runtime';
import { keys } from '../../../shared/adapters/dynamo/keys';
import { accountStore, useLocalStackEnvironment } from '../../support/api';
import { sqsEvent } from '../../support/sqs-event';
import { accountWithWebhookEvent } from '../../support/events-under-test';

const eventMessage = (eventId: string) => sqsEvent([JSON.stringify({ eventId })], 'webhooks');

/** An account whose webhook points at `url`, and one event of it stored for this test's sender only. */
const accountWithEvent = (url: string, message: string) => accountWithWebhookEvent(url, message);

describe('webhook sender (in-process, against the local table)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('resolves and checks the host again before each attempt: a host that now resolves to a private address is not contacted', async () => {
    const store = accountStore();
    const runtime = getRuntime();
    const event = { id: (await accountWithEvent('https://rebind.test:8443/hooks', 'rebinding check')).eventId };
    const lookups: string[] = [];
    // A scratch queue for the next attempt's message (sent before the attempt is recorded).
    const created = await getSqs().send(new CreateQueueCommand({ QueueName: `sender-unit-${randomUUID()}` }));
    overrideRuntime({
      config: { ...runtime.config, webhooks: { ...runtime.config.webhooks, queueUrl: String(created.QueueUrl) } },
      resolve: async (host) => {
        lookups.push(host);
        return host === 'rebind.test' ? ['127.0.0.1'] : [];
      },
    });
    try {
      const result = await handler(eventMessage(event.id));
      expect(result.batchItemFailures).toHaveLength(0);
      const next = await getSqs().send(new ReceiveMessageCommand({ QueueUrl: String(created.QueueUrl), WaitTimeSeconds: 0, MaxNumberOfMessages: 10 }));
      // The next attempt waits in the queue as a delayed message (not visible yet), none in flight.
      expect(next.Messages ?? []).toHaveLength(0);
    } finally {
      overrideRuntime({ resolve: runtime.resolve, config: runtime.config });
      await getSqs().send(new DeleteQueueCommand({ QueueUrl: String(created.QueueUrl) }));
    }
    expect(lookups).toEqual(['rebind.test']);
    const record = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.delivery(event.id), ConsistentRead: true }))).Item;
    expect(record).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: null,
      lastError: expect.stringContaining('private or reserved address (127.0.0.1)'),
    });
    expect(typeof record?.nextAttemptAt).toBe('string');
  });

  it('a DNS look-up that never answers fails the attempt after DNS_TIMEOUT_MS; the next attempt is scheduled', async () => {
    const store = accountStore();
    const runtime = getRuntime();
    const { eventId } = await accountWithEvent('https://dns-hangs.test/hooks', 'dns timeout');
    const created = await getSqs().send(new CreateQueueCommand({ QueueName: `sender-dns-${randomUUID()}` }));
    overrideRuntime({
      config: { ...runtime.config, webhooks: { ...runtime.config.webhooks, queueUrl: String(created.QueueUrl), dnsTimeoutMs: 150 } },
      resolve: () => new Promise<string[]>(() => undefined),
    });
    let result;
    try {
      result = await handler(eventMessage(eventId));
    } finally {
      overrideRuntime({ resolve: runtime.resolve, config: runtime.config });
      await getSqs().send(new DeleteQueueCommand({ QueueUrl: String(created.QueueUrl) }));
    }
    expect(result.batchItemFailures).toHaveLength(0);
    const record = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.delivery(eventId), ConsistentRead: true }))).Item;
    expect(record).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: null,
      lastError: 'blocked: host could not be resolved (DNS lookup timed out after 150 ms)',
    });
    expect(typeof record?.nextAttemptAt).toBe('string');
  }, 10_000);
});
