import { getSqs } from '../adapters/sqs/client';
import { sqsQueue } from '../adapters/sqs/queue';
import type { MessageQueue } from '../ports/queue';

/** The container's message queues (SQS; the emulator locally), its client made on first use. */
export function messageQueue(): MessageQueue {
  return sqsQueue(getSqs());
}
