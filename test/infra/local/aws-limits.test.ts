import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AwsLimitError, checkDynamoDb, checkSqs, enforceDynamoDbLimits, enforceSqsLimits } from '../../../infra/local/aws-limits';
import { createDb } from '../../../shared/adapters/dynamo/dynamo';

const none = new Map<string, number>();

describe('AWS limits enforced locally', () => {
  it('SQS: delays of 0–900 s only, batches of 10, messages up to 256 KiB', () => {
    expect(() => checkSqs('SendMessageCommand', { DelaySeconds: 900, MessageBody: 'x' }, none, 0)).not.toThrow();
    expect(() => checkSqs('SendMessageCommand', { DelaySeconds: 901, MessageBody: 'x' }, none, 0)).toThrow(AwsLimitError);
    expect(() => checkSqs('SendMessageCommand', { MessageBody: 'x'.repeat(262_145) }, none, 0)).toThrow(/exceed/);
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ Id: String(i), MessageBody: 'x' }));
    expect(() => checkSqs('SendMessageBatchCommand', { Entries: entries(10) }, none, 0)).not.toThrow();
    expect(() => checkSqs('SendMessageBatchCommand', { Entries: entries(11) }, none, 0)).toThrow(/at most 10/);
    expect(() => checkSqs('SendMessageBatchCommand', { Entries: [{ Id: '1', MessageBody: 'x', DelaySeconds: 43_200 }] }, none, 0)).toThrow(/DelaySeconds/);
    expect(() => checkSqs('DeleteMessageBatchCommand', { Entries: entries(11) }, none, 0)).toThrow(/at most 10/);
    expect(() => checkSqs('ReceiveMessageCommand', { MaxNumberOfMessages: 11 }, none, 0)).toThrow(/MaxNumberOfMessages/);
  });

  it('SQS: visibility is capped at 12 h counted from the receipt (43,200 s after any work is refused)', () => {
    const received = new Map([['r1', 0]]);
    expect(() => checkSqs('ChangeMessageVisibilityCommand', { ReceiptHandle: 'r1', VisibilityTimeout: 43_200 }, received, 0)).not.toThrow();
    expect(() => checkSqs('ChangeMessageVisibilityCommand', { ReceiptHandle: 'r1', VisibilityTimeout: 43_200 }, received, 5_000)).toThrow(/12 hours/);
    expect(() => checkSqs('ChangeMessageVisibilityCommand', { ReceiptHandle: 'r1', VisibilityTimeout: 43_195 }, received, 5_000)).not.toThrow();
    expect(() => checkSqs('ChangeMessageVisibilityCommand', { ReceiptHandle: 'r2', VisibilityTimeout: 43_201 }, received, 0)).toThrow(AwsLimitError);
  });

  it('DynamoDB: partition keys up to 2,048 bytes, sort keys up to 1,024, items up to 400 KB, transactions up to 100 actions', () => {
    expect(() => checkDynamoDb('GetItemCommand', { Key: { PK: 'p'.repeat(2_048), SK: 's' } })).not.toThrow();
    expect(() => checkDynamoDb('GetItemCommand', { Key: { PK: 'p'.repeat(2_049), SK: 's' } })).toThrow(/Hash primary key/);
    expect(() => checkDynamoDb('UpdateCommand', { Key: { PK: { S: 'p'.repeat(2_049) }, SK: { S: 's' } } })).toThrow(/Hash primary key/);
    expect(() => checkDynamoDb('DeleteItemCommand', { Key: { PK: 'p', SK: 's'.repeat(1_025) } })).toThrow(/Range primary key/);
    expect(() => checkDynamoDb('PutItemCommand', { Item: { PK: 'p', SK: 's', blob: 'x'.repeat(410_000) } })).toThrow(/Item size/);
    const put = { Put: { TableName: 't', Item: { PK: 'p', SK: 's' } } };
    expect(() => checkDynamoDb('TransactWriteItemsCommand', { TransactItems: Array.from({ length: 100 }, () => put) })).not.toThrow();
    expect(() => checkDynamoDb('TransactWriteItemsCommand', { TransactItems: Array.from({ length: 101 }, () => put) })).toThrow(/less than or equal to 100/);
    const big = { Put: { TableName: 't', Item: { PK: 'p', SK: 's', blob: 'x'.repeat(300_000) } } };
    expect(() => checkDynamoDb('TransactWriteItemsCommand', { TransactItems: Array.from({ length: 15 }, () => big) })).toThrow(/4 MB/);
  });

  it('installed on real SDK clients, refuses before anything is sent', async () => {
    const sqs = new SQSClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
    enforceSqsLimits(sqs);
    await expect(sqs.send(new SendMessageCommand({ QueueUrl: 'http://127.0.0.1:9/q', MessageBody: 'x', DelaySeconds: 43_200 }))).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    const db = createDb(
      new DynamoDBClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 }),
    );
    enforceDynamoDbLimits(db);
    await expect(db.send(new PutCommand({ TableName: 't', Item: { PK: 'k'.repeat(3_000), SK: 's' } }))).rejects.toMatchObject({ name: 'ValidationException' });
  });
});
