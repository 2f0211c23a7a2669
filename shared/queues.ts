/**
 * The service's SQS queues, read by the CDK stack and the local stack alike. Each queue has a DLQ;
 * `handler` is the module that consumes it (Lambda event source in AWS, a poller locally).
 * Later features add rows here (webhook delivery, withdraw retries).
 */
export type QueueDef = {
  id: string;
  /** Consumer module relative to the project root; exports `handler` (SQS event, batch item failures). */
  handler: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
};

export const queueList: readonly QueueDef[] = [];

/** Consumers of the table's stream: each receives the DynamoDB Streams records its filter keeps. */
export type StreamConsumerDef = {
  id: string;
  handler: string;
  /** Keep only INSERTs of items whose `type` attribute is one of these (a Lambda event filter in AWS). */
  insertsOfTypes: readonly string[];
};

export const streamConsumerList: readonly StreamConsumerDef[] = [];
