import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../logger';
import type { Runtime } from '../runtime';
import type { Db, Item } from '../adapters/dynamo/dynamo';
import { WITHDRAW_ITEM_TYPE } from '../adapters/dynamo/withdrawals';
import { OUTBOX_ITEM_TYPE } from '../adapters/dynamo/outbox';
import { SWEEP_INDEX, sweepPartitions } from './sweep-index';

/** What forwarding needs: the table, SQS and the two queues items go to. */
export type ForwardPorts = { db: Db; table: string; sqs: SQSClient; queues: { payouts: string | undefined; webhooks: string | undefined } };

/** The forwarding ports of a container: its table, its SQS client and its configured queues. */
export function forwardPortsOf(runtime: Runtime, sqs: SQSClient): ForwardPorts {
  const { db, config } = runtime;
  return { db, table: config.tableName, sqs, queues: { payouts: config.payouts.queueUrl, webhooks: config.webhooks.queueUrl } };
}

/** An item to forward: its key (to leave the sweep's index once sent), its queue and its message. */
export type Forwardable = { PK: string; SK: string; queue: 'payouts' | 'webhooks'; message: object };

/** The message of a new withdraw (to the payout queue) or an outbox event (to the webhook queue); undefined for anything else. */
export function forwardableOf(item: Item | undefined): Forwardable | undefined {
  if (!item || typeof item.PK !== 'string' || typeof item.SK !== 'string') return undefined;
  if (item.type === WITHDRAW_ITEM_TYPE && typeof item.reference === 'string')
    return { PK: item.PK, SK: item.SK, queue: 'payouts', message: { reference: item.reference } };
  if (item.type === OUTBOX_ITEM_TYPE && typeof item.eventId === 'string')
    return { PK: item.PK, SK: item.SK, queue: 'webhooks', message: { eventId: item.eventId } };
  return undefined;
}

/**
 * Sends each item's message to its queue (batches of 10), then takes the sent items out of the sweep's
 * index. Returns the items whose message could not be queued (nothing else is lost: a crash between
 * the send and the index update only means the sweep forwards the item again, which its consumer
 * absorbs: payouts by the bank's idempotency key, webhooks by the attempt number).
 */
export async function forwardItems(ports: ForwardPorts, items: readonly Forwardable[]): Promise<{ sent: Forwardable[]; failed: Forwardable[] }> {
  const sent: Forwardable[] = [];
  const failed: Forwardable[] = [];
  for (const queue of ['payouts', 'webhooks'] as const) {
    const mine = items.filter((item) => item.queue === queue);
    const queueUrl = ports.queues[queue];
    if (mine.length > 0 && !queueUrl) {
      logger.error('no queue configured for forwarded items', { queue });
      failed.push(...mine);
      continue;
    }
    for (let i = 0; i < mine.length; i += 10) {
      const batch = mine.slice(i, i + 10);
      try {
        const out = await ports.sqs.send(
          new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch.map((item, n) => ({ Id: String(n), MessageBody: JSON.stringify(item.message) })) }),
        );
        const refused = new Set((out.Failed ?? []).map((f) => Number(f.Id)));
        batch.forEach((item, n) => (refused.has(n) ? failed : sent).push(item));
      } catch (err) {
        logger.warn('messages not queued', { queue, count: batch.length, error: err instanceof Error ? err.message : 'unknown' });
        failed.push(...batch);
      }
    }
  }
  await Promise.all(sent.map((item) => leaveSweepIndex(ports, item)));
  return { sent, failed };
}

async function leaveSweepIndex(ports: ForwardPorts, item: Forwardable): Promise<void> {
  try {
    await ports.db.send(
      new UpdateCommand({
        TableName: ports.table,
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (err) {
    // Still indexed: the sweep will forward it once more (harmless).
    logger.warn('forwarded item left in the sweep index', { key: item.PK, error: err instanceof Error ? err.message : 'unknown' });
  }
}

/** Items still waiting to be forwarded, created between `fromIso` and `toIso` (ISO times sort as text). */
export async function unforwardedItems(ports: Pick<ForwardPorts, 'db' | 'table'>, fromIso: string, toIso: string, maxItems = 1_000): Promise<Forwardable[]> {
  const found: Forwardable[] = [];
  for (const partition of sweepPartitions) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ports.db.send(
        new QueryCommand({
          TableName: ports.table,
          IndexName: SWEEP_INDEX,
          KeyConditionExpression: 'GSI2PK = :p AND GSI2SK BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':p': partition, ':from': fromIso, ':to': `${toIso}~` },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const forwardable = forwardableOf(item);
        if (forwardable) found.push(forwardable);
      }
      start = page.LastEvaluatedKey;
    } while (start && found.length < maxItems);
  }
  return found.slice(0, maxItems);
}

/** Forwards every item still unforwarded among those created between `fromIso` and `toIso` (the sweep and `stream redrive`). */
export async function forwardUnforwarded(
  ports: ForwardPorts,
  fromIso: string,
  toIso: string,
): Promise<{ found: number; sent: Forwardable[]; failed: Forwardable[] }> {
  const items = await unforwardedItems(ports, fromIso, toIso);
  if (items.length === 0) return { found: 0, sent: [], failed: [] };
  return { found: items.length, ...(await forwardItems(ports, items)) };
}
