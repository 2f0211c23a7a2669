import { logger } from '../../platform/logger';
import type { Forwardable, ForwardIndex } from '../../ports/forwarding';
import type { MessageQueue } from '../../ports/queue';

/** What forwarding needs: the sweep's index, the queues, and the URLs of the queues items go to. */
export type ForwardPorts = {
  index: ForwardIndex;
  queue: MessageQueue;
  queues: { payouts: string | undefined; webhooks: string | undefined; mail: string | undefined };
};

/** Messages per queue call (SQS's batch limit). */
const BATCH = 10;

/**
 * Sends each item's message to its queue (batches of 10), then takes the sent items out of the sweep's
 * index. Returns the items whose message could not be queued (nothing else is lost: a crash between
 * the send and the index update only means the sweep forwards the item again, which its consumer
 * absorbs: payouts by the bank's idempotency key, webhooks by the attempt number).
 */
export async function forwardItems(ports: ForwardPorts, items: readonly Forwardable[]): Promise<{ sent: Forwardable[]; failed: Forwardable[] }> {
  const sent: Forwardable[] = [];
  const failed: Forwardable[] = [];
  for (const queue of ['payouts', 'webhooks', 'mail'] as const) {
    const mine = items.filter((item) => item.queue === queue);
    const queueUrl = ports.queues[queue];
    if (mine.length > 0 && !queueUrl) {
      logger.error('no queue configured for forwarded items', { queue });
      failed.push(...mine);
      continue;
    }
    for (let i = 0; queueUrl && i < mine.length; i += BATCH) {
      const batch = mine.slice(i, i + BATCH);
      try {
        const refused = new Set(
          await ports.queue.sendBatch(
            queueUrl,
            batch.map((item) => item.message),
          ),
        );
        batch.forEach((item, n) => (refused.has(n) ? failed : sent).push(item));
      } catch (err) {
        logger.warn('messages not queued', { queue, count: batch.length, error: err instanceof Error ? err.message : 'unknown' });
        failed.push(...batch);
      }
    }
  }
  await Promise.all(sent.map((item) => ports.index.leave(item)));
  return { sent, failed };
}

/** Forwards every item still unforwarded among those created between `fromIso` and `toIso` (the sweep and `stream redrive`). */
export async function forwardUnforwarded(
  ports: ForwardPorts,
  fromIso: string,
  toIso: string,
  maxItems = 1_000,
): Promise<{ found: number; sent: Forwardable[]; failed: Forwardable[] }> {
  const items = await ports.index.unforwarded(fromIso, toIso, maxItems);
  if (items.length === 0) return { found: 0, sent: [], failed: [] };
  return { found: items.length, ...(await forwardItems(ports, items)) };
}
