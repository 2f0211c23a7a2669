import { randomUUID } from 'node:crypto';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { localAwsConfig } from '../../../infra/local/aws';
import { startQueuePoller, startStreamPoller } from '../../../infra/local/pollers';
import { droppedInvocations, propagateChains, RECURSION_LIMIT } from '../../../infra/local/recursion';
import { accountStore, stack } from '../../support/api';

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

describe('local pollers (the event source mappings of the local stack)', () => {
  it('feeds INSERTs of the chosen item types from the table stream, in the Lambda event shape', async () => {
    const dynamo = new DynamoDBClient({ ...localAwsConfig(), endpoint: stack().dynamodbEndpoint });
    const table = await dynamo.send(new DescribeTableCommand({ TableName: stack().tableName }));
    const streamArn = table.Table?.LatestStreamArn ?? '';
    expect(streamArn).not.toBe('');
    const seen: DynamoDBStreamEvent[] = [];
    // From the stream's end: the whole run's history (thousands of records) is not this test's to read.
    const poller = startStreamPoller(
      new DynamoDBStreamsClient({ ...localAwsConfig(), endpoint: stack().dynamodbEndpoint }),
      streamArn,
      [
        {
          def: { id: 'TestConsumer', handler: 'none', insertsOfTypes: ['poller-test'] },
          handler: async (event) => void seen.push(event as DynamoDBStreamEvent),
        },
      ],
      200,
      'LATEST',
    );
    try {
      await poller.ready;
      const id = randomUUID();
      const store = accountStore();
      await store.db.send(new PutCommand({ TableName: store.table, Item: { PK: `PT#${id}`, SK: 'A', type: 'poller-test', n: 1 } }));
      await store.db.send(new PutCommand({ TableName: store.table, Item: { PK: `PT#${id}`, SK: 'B', type: 'something-else' } }));
      await store.db.send(new PutCommand({ TableName: store.table, Item: { PK: `PT#${id}`, SK: 'A', type: 'poller-test', n: 2 } }));
      const mine = () => seen.flatMap((e) => e.Records).filter((r) => r.dynamodb?.Keys?.PK?.S === `PT#${id}`);
      await eventually(() => mine().length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const records = mine();
      expect(records).toHaveLength(1);
      const [record] = records;
      expect(record?.eventName).toBe('INSERT');
      expect(record?.eventSource).toBe('aws:dynamodb');
      expect(record?.eventSourceARN).toBe(streamArn);
      expect(record?.dynamodb?.NewImage?.n?.N).toBe('1');
      expect(record?.dynamodb?.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
    } finally {
      await poller.stop();
    }
  });

  it('feeds an SQS queue in batches, deletes what succeeded and leaves reported failures to the DLQ', async () => {
    const sqs = new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
    const name = `poller-${randomUUID().slice(0, 8)}`;
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: { VisibilityTimeout: '1', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }) },
      }),
    );
    const bodies: string[] = [];
    const handler = async (event: unknown) => {
      const records = (event as SQSEvent).Records;
      for (const r of records) {
        bodies.push(r.body);
        expect(r.eventSource).toBe('aws:sqs');
      }
      const response: SQSBatchResponse = { batchItemFailures: records.filter((r) => r.body === 'fail').map((r) => ({ itemIdentifier: r.messageId })) };
      return response;
    };
    const poller = startQueuePoller(sqs, queue.QueueUrl ?? '', 'arn:aws:sqs:us-east-1:000000000000:test', {
      id: 'TestQueueConsumer',
      handler,
      recursiveLoop: 'Terminate',
      dlqUrl: dlq.QueueUrl ?? '',
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: 'ok' }));
      await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: 'fail' }));
      await eventually(async () => {
        const moved = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 30 }));
        return (moved.Messages ?? []).some((m) => m.Body === 'fail');
      }, 20_000);
      expect(bodies.filter((b) => b === 'ok')).toHaveLength(1);
      expect(bodies.filter((b) => b === 'fail')).toHaveLength(2);
    } finally {
      await poller.stop();
    }
  }, 30_000);

  it("applies Lambda's recursive loop rule: a consumer that keeps re-sending to its own queue is stopped at its 17th invocation unless it allows recursion", async () => {
    const sqs = new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
    // The consumer's own client carries its invocation's chain into what it sends (as the SDK's trace header does).
    const sending = new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
    propagateChains(sending);
    const run = async (recursiveLoop: 'Allow' | 'Terminate', id: string) => {
      const name = `recursion-${randomUUID().slice(0, 8)}`;
      const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
      const queue = await sqs.send(new CreateQueueCommand({ QueueName: name }));
      let invocations = 0;
      const handler = async (event: unknown) => {
        for (const record of (event as SQSEvent).Records) {
          invocations += 1;
          const hop = Number(record.body);
          if (hop < 30) await sending.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: String(hop + 1) }));
        }
        return { batchItemFailures: [] };
      };
      const poller = startQueuePoller(sqs, queue.QueueUrl ?? '', 'arn:aws:sqs:us-east-1:000000000000:test', {
        id,
        handler,
        recursiveLoop,
        dlqUrl: dlq.QueueUrl ?? '',
      });
      try {
        await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: '1' }));
        await eventually(async () => {
          if (recursiveLoop === 'Allow') return invocations >= 30;
          const moved = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 30 }),
          );
          return (moved.Messages ?? []).some((m) => m.Body === '17');
        }, 60_000);
        return invocations;
      } finally {
        await poller.stop();
      }
    };
    const before = droppedInvocations('LoopingTerminate');
    expect(await run('Terminate', 'LoopingTerminate')).toBe(RECURSION_LIMIT);
    expect(droppedInvocations('LoopingTerminate')).toBe(before + 1);
    expect(await run('Allow', 'LoopingAllow')).toBe(30);
    expect(droppedInvocations('LoopingAllow')).toBe(0);
  }, 90_000);
});
