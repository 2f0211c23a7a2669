import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';

/** The event Lambda's SQS event source hands a consumer: one record per message body, as received once. */
export function sqsEvent(bodies: readonly string[], queue = 'test'): SQSEvent {
  return {
    Records: bodies.map((body) => ({
      messageId: randomUUID(),
      receiptHandle: `r-${randomUUID()}`,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
      awsRegion: 'us-east-1',
    })),
  };
}
