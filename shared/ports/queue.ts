import type { Scheduled } from '../domain/delay-hops';

/** The message queues (shared/adapters/sqs/queue.ts): SQS in AWS, its emulator locally. */
export interface MessageQueue {
  /** Sends one message now. */
  send(queueUrl: string, body: object): Promise<void>;
  /** Sends `body` to arrive at its `notBefore`: the first hop, at most `maxHopSeconds` (900); later hops are sent on arrival. */
  sendScheduled(queueUrl: string, body: Scheduled & object, now: Date, maxHopSeconds?: number): Promise<void>;
  /** Sends up to 10 messages in one call; returns the positions the queue refused (a failed call throws). */
  sendBatch(queueUrl: string, bodies: readonly object[]): Promise<number[]>;
}
