import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryAttemptEntry, DeliveryStatus, StoredEvent, WebhookDelivery } from '../../domain/webhooks';
import type { Db, Item } from './dynamo';
import { keys } from './keys';

/** One event and its delivery read by key (the webhook sender, the operator, the panel's invoice page): its own module, a small bundle. */

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The recorded attempts as stored (a list of maps); anything else is skipped. */
function attemptLogOf(value: unknown): DeliveryAttemptEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const e = entry as Record<string, unknown>;
    if (typeof e.at !== 'string') return [];
    return [
      {
        at: e.at,
        httpStatus: typeof e.httpStatus === 'number' ? e.httpStatus : null,
        error: text(e.error),
        durationMs: typeof e.durationMs === 'number' ? e.durationMs : 0,
      },
    ];
  });
}

/** A delivery item read back as the record. */
export function deliveryOf(item: Item): WebhookDelivery {
  return {
    eventId: String(item.eventId),
    accountId: String(item.accountId),
    eventType: String(item.eventType),
    url: String(item.url),
    status: (item.status ?? 'pending') as DeliveryStatus,
    attempts: Number(item.attempts ?? 0),
    nextAttemptAt: text(item.nextAttemptAt),
    lastStatus: typeof item.lastStatus === 'number' ? item.lastStatus : null,
    lastError: text(item.lastError),
    ...(typeof item.claimUntil === 'string' ? { claimUntil: item.claimUntil } : {}),
    series: Number(item.series ?? 1),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    attemptLog: attemptLogOf(item.attemptLog),
  };
}

export function dynamoEventReads(
  db: Db,
  table: string,
): { event: (eventId: string) => Promise<StoredEvent | undefined>; delivery: (eventId: string) => Promise<WebhookDelivery | undefined> } {
  const get = async (key: Record<string, string>) => (await db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  return {
    async event(eventId) {
      const item = await get(keys.event(eventId));
      return item ? { eventId, accountId: String(item.accountId), eventType: String(item.eventType), body: String(item.body) } : undefined;
    },
    async delivery(eventId) {
      const item = await get(keys.delivery(eventId));
      return item ? deliveryOf(item) : undefined;
    },
  };
}
