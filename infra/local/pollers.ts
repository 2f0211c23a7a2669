import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { DeleteMessageBatchCommand, DeleteMessageCommand, type Message, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { StreamConsumerDef, StreamMappingDef } from '../../shared/platform/queues';
import { deliverLikeLambda, failureRecord, type StreamFailureRecord } from './stream-mapping';
import { lambdaContext } from './apigw-event';
import type { LoadedHandler } from './handlers';
import { type Chain, chainOfMessage, countDropped, forgetMessage, RECURSION_LIMIT, recursionVerdict, runInChain } from './recursion';

export type Poller = { stop: () => Promise<void> };

function log(message: string, extra: Record<string, unknown> = {}) {
  console.error(JSON.stringify({ level: 'WARN', message, ...extra }));
}

/** A stream record in the shape Lambda's DynamoDB event source delivers. */
export function toLambdaStreamRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  const created = change.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ...(change as DynamoDBRecord['dynamodb']),
      ApproximateCreationDateTime: created instanceof Date ? Math.floor(created.getTime() / 1000) : undefined,
    },
  };
}

function keeps(consumer: StreamConsumerDef, record: DynamoDBRecord): boolean {
  const type = record.dynamodb?.NewImage?.type?.S;
  return record.eventName === 'INSERT' && type !== undefined && consumer.insertsOfTypes.includes(type);
}

/** Where a consumer's given-up records go (the mapping's on-failure destination: an SQS queue). */
export type FailureSink = (record: StreamFailureRecord) => Promise<void>;

export type StreamConsumer = {
  def: StreamConsumerDef & Partial<Pick<StreamMappingDef, 'retryAttempts' | 'maxRecordAgeSeconds'>>;
  handler: LoadedHandler;
  failures?: FailureSink;
};

/**
 * Feeds the table's stream to its consumers as Lambda's event source mapping does: batches in order
 * per shard, filtered per consumer, partial batch failures honoured, bounded retries with bisection,
 * then a failure record to the consumer's failure queue, and the stream moves on. `startAt` LATEST
 * skips what the shards open at start already hold (shards opened later are read from their start);
 * `ready` resolves once the first shards' iterators are taken.
 */
export function startStreamPoller(
  client: DynamoDBStreamsClient,
  streamArn: string,
  consumers: StreamConsumer[],
  pauseMs = 200,
  startAt: 'TRIM_HORIZON' | 'LATEST' = 'TRIM_HORIZON',
): Poller & { ready: Promise<void> } {
  const iterators = new Map<string, string | undefined>();
  let first = true;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const poller = pollUntilStopped('stream poller', {}, async () => {
    const described = await client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of described.StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      const type = first ? startAt : 'TRIM_HORIZON';
      const it = await client.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: type }));
      iterators.set(shard.ShardId, it.ShardIterator);
    }
    if (first) {
      first = false;
      markReady();
    }
    let idle = true;
    for (const [shardId, iterator] of iterators) {
      if (!iterator) continue;
      const page = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
      const records = (page.Records ?? []).map((r) => toLambdaStreamRecord(r, streamArn));
      for (const consumer of consumers) {
        const batch = records.filter((r) => keeps(consumer.def, r));
        if (batch.length === 0) continue;
        idle = false;
        const settings = {
          id: consumer.def.id,
          retryAttempts: consumer.def.retryAttempts ?? 10,
          maxRecordAgeSeconds: consumer.def.maxRecordAgeSeconds ?? 3600,
        };
        await deliverLikeLambda(batch, settings, {
          invoke: (segment) => consumer.handler({ Records: segment }, lambdaContext(consumer.def.id)),
          giveUp: async (segment, condition, invokeCount) => {
            log('stream consumer gave up on records', { consumer: consumer.def.id, count: segment.length, condition });
            const record = failureRecord(segment, { functionId: consumer.def.id, shardId, streamArn, condition, invokeCount, now: new Date() });
            if (consumer.failures) await consumer.failures(record);
          },
          pauseMs,
        });
      }
      iterators.set(shardId, page.NextShardIterator);
    }
    if (idle) await sleep(100);
  });
  return { ...poller, ready };
}

/** Runs `task` every `intervalMs` until stopped (a schedule); a failed run is logged. Stopping does not wait for the interval. */
export function startTimer(label: string, intervalMs: number, task: () => Promise<unknown>): Poller {
  const stopped = new AbortController();
  const done = (async () => {
    while (!stopped.signal.aborted) {
      try {
        await sleep(intervalMs, undefined, { signal: stopped.signal });
        await task();
      } catch (err) {
        if (stopped.signal.aborted) return;
        log(`${label} error`, { error: err instanceof Error ? err.message : String(err) });
      }
    }
  })();
  return {
    stop: async () => {
      stopped.abort();
      await done;
    },
  };
}

/** Runs one polling step after another until stopped; a failed step is logged and retried after a pause. */
function pollUntilStopped(label: string, fields: Record<string, unknown>, step: () => Promise<void>): Poller {
  let running = true;
  const done = (async () => {
    while (running) {
      try {
        await step();
      } catch (err) {
        log(`${label} error`, { ...fields, error: err instanceof Error ? err.message : String(err) });
        await sleep(500);
      }
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** A queue's consumer as the local poller runs it: its id, its handler, Lambda's recursion setting and where a stopped message goes. */
export type QueueConsumer = {
  id: string;
  handler: LoadedHandler;
  recursiveLoop: 'Allow' | 'Terminate';
  /** The queue's DLQ (its redrive target), where an invocation the recursion rule stops leaves its message. */
  dlqUrl: string;
};

/**
 * Feeds an SQS queue to its consumer as Lambda's SQS event source would: batches of up to 10,
 * ReportBatchItemFailures honoured (failed messages stay for redelivery, and reach the DLQ after
 * maxReceiveCount), the rest deleted. Lambda's recursive loop detection applies (./recursion.ts): a
 * message whose chain has already invoked this consumer 16 times goes to the DLQ uninvoked unless the
 * consumer allows recursion; the others are invoked one chain at a time, within their chain.
 */
export function startQueuePoller(sqs: SQSClient, queueUrl: string, queueArn: string, consumer: QueueConsumer): Poller {
  const { id, handler } = consumer;
  return pollUntilStopped('queue poller', { queue: id }, async () => {
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return;
    const byChain = new Map<string, { chain: Chain; messages: Message[] }>();
    for (const message of messages) {
      const verdict = recursionVerdict(chainOfMessage(message.MessageId ?? ''), id, consumer.recursiveLoop);
      if (verdict.kind === 'stop') {
        await stopRecursion(sqs, queueUrl, consumer, message);
        continue;
      }
      const group = byChain.get(verdict.chain.root) ?? { chain: verdict.chain, messages: [] };
      group.messages.push(message);
      byChain.set(verdict.chain.root, group);
    }
    for (const { chain, messages: batch } of byChain.values()) {
      await runInChain(chain, () => invokeBatch(sqs, queueUrl, queueArn, id, handler, batch));
    }
  });
}

/** Lambda stopped this invocation: the message goes to the DLQ, uninvoked, and the drop is counted and logged. */
async function stopRecursion(sqs: SQSClient, queueUrl: string, consumer: QueueConsumer, message: Message): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: consumer.dlqUrl, MessageBody: message.Body ?? '' }));
  await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle ?? '' }));
  forgetMessage(message.MessageId ?? '');
  countDropped(consumer.id);
  log('recursive loop detected: invocation stopped, message sent to the DLQ (RecursiveInvocationsDropped)', {
    consumer: consumer.id,
    messageId: message.MessageId,
    limit: RECURSION_LIMIT,
  });
}

/** One invocation with a batch of messages; the ones it did not report failed are deleted. */
async function invokeBatch(sqs: SQSClient, queueUrl: string, queueArn: string, id: string, handler: LoadedHandler, messages: Message[]): Promise<void> {
  const event: SQSEvent = {
    Records: messages.map((m) => ({
      messageId: m.MessageId ?? '',
      receiptHandle: m.ReceiptHandle ?? '',
      body: m.Body ?? '',
      attributes: (m.Attributes ?? {}) as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion: 'us-east-1',
    })),
  };
  let failed = new Set<string>();
  try {
    const result = (await handler(event, lambdaContext(id))) as SQSBatchResponse | undefined;
    failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch (err) {
    failed = new Set(event.Records.map((r) => r.messageId));
    log('queue consumer failed', { consumer: id, error: err instanceof Error ? err.message : String(err) });
  }
  const done = messages.filter((m) => m.MessageId && !failed.has(m.MessageId));
  if (done.length > 0) {
    await sqs.send(
      new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })) }),
    );
    for (const m of done) forgetMessage(m.MessageId ?? '');
  }
}
