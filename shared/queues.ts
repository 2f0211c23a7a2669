/**
 * The service's SQS queues, read by the CDK stack and the local stack alike. Each queue has a DLQ;
 * `handler` is the module that consumes it (Lambda event source in AWS, a poller locally).
 * Later features add rows here (webhook delivery).
 */
export type QueueDef = {
  id: string;
  /** Consumer module relative to the project root; exports `handler` (SQS event, batch item failures). */
  handler: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  /** The environment variable that carries the queue's URL to the functions that send to it. */
  urlEnv: string;
};

export const queues = {
  /** Withdrawals to ask the bank to pay (fed by the stream forwarder); retried with growing waits, then the DLQ. */
  payouts: { id: 'payouts', handler: 'functions/workers/payout.ts', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, urlEnv: 'PAYOUT_QUEUE_URL' },
} satisfies Record<string, QueueDef>;

export const queueList: readonly QueueDef[] = Object.values(queues);

/** Consumers of the table's stream: each receives the DynamoDB Streams records its filter keeps. */
export type StreamConsumerDef = {
  id: string;
  handler: string;
  /** Keep only INSERTs of items whose `type` attribute is one of these (a Lambda event filter in AWS). */
  insertsOfTypes: readonly string[];
};

/** Forwards new withdrawals (and, later, outbox events) from the table's stream to their queues. */
export const streamForwarder: StreamConsumerDef = { id: 'StreamForwarder', handler: 'functions/workers/stream-forwarder.ts', insertsOfTypes: ['withdraw'] };

export const streamConsumerList: readonly StreamConsumerDef[] = [streamForwarder];
