/**
 * The service's SQS queues, read by the CDK stack and the local stack alike. Each queue has a DLQ;
 * `handler` is the module that consumes it (Lambda event source in AWS, a poller locally).

 */
export type QueueDef = {
  id: string;
  /** Consumer module relative to the project root; exports `handler` (SQS event, batch item failures). */
  handler: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  /** The environment variable that carries the queue's URL to the functions that send to it. */
  urlEnv: string;
  /** Messages per invocation and the consumer's timeout (batch × the slowest message must fit; the visibility timeout must exceed it). */
  batchSize: number;
  workerTimeoutSeconds: number;
};

export const queues = {
  /** Withdrawals to ask the bank to pay (fed by the stream forwarder); retried with growing waits, then the DLQ. */
  payouts: {
    id: 'payouts',
    handler: 'functions/workers/payout.ts',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 8,
    urlEnv: 'PAYOUT_QUEUE_URL',
    batchSize: 10,
    workerTimeoutSeconds: 30,
  },
  /**
   * Webhook deliveries (fed by the stream forwarder with outbox events). The sender itself schedules the
   * 8 attempts with ChangeMessageVisibility; the DLQ only receives messages it could not process at all.
   */
  webhooks: {
    id: 'webhooks',
    handler: 'functions/workers/webhook-sender.ts',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 12,
    urlEnv: 'WEBHOOK_QUEUE_URL',
    batchSize: 4,
    workerTimeoutSeconds: 50,
  },
} satisfies Record<string, QueueDef>;

export const queueList: readonly QueueDef[] = Object.values(queues);

/** Consumers of the table's stream: each receives the DynamoDB Streams records its filter keeps. */
export type StreamConsumerDef = {
  id: string;
  handler: string;
  /** Keep only INSERTs of items whose `type` attribute is one of these (a Lambda event filter in AWS). */
  insertsOfTypes: readonly string[];
};

/** Forwards new withdrawals and outbox events from the table's stream to their queues. */
export const streamForwarder: StreamConsumerDef = {
  id: 'StreamForwarder',
  handler: 'functions/workers/stream-forwarder.ts',
  insertsOfTypes: ['withdraw', 'event'],
};

export const streamConsumerList: readonly StreamConsumerDef[] = [streamForwarder];
