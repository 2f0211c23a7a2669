import type { Db } from '../adapters/dynamo/dynamo';
import { dynamoForwardIndex } from '../adapters/dynamo/forward-index';
import type { ForwardPorts } from '../app/events/forward';
import type { MessageQueue } from '../ports/queue';
import type { Runtime } from './runtime';
import { messageQueue } from './queue';

export { forwardableRecord } from '../adapters/dynamo/forward-index';

/** The forwarding ports of a container: its table's sweep index, its queues and their configured URLs. */
export function forwardPorts(runtime: Runtime): ForwardPorts {
  const { db, config } = runtime;
  return {
    index: dynamoForwardIndex(db, config.tableName),
    queue: messageQueue(),
    queues: { payouts: config.payouts.queueUrl, webhooks: config.webhooks.queueUrl, mail: config.mail.queueUrl },
  };
}

/** The forwarding ports over a given table and queue (the operator's `stream redrive`). */
export function forwardPortsOver(db: Db, table: string, queue: MessageQueue, queues: ForwardPorts['queues']): ForwardPorts {
  return { index: dynamoForwardIndex(db, table), queue, queues };
}
