import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LoggedEvent } from '../../domain/events-log';
import type { WebhookDelivery } from '../../domain/webhooks';
import type { EventLog } from '../../ports/webhooks';
import { batchGetConsistent } from './batch-get';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { deliveryOf } from './webhook-reads';

/** Events read per Query page (each page's deliveries are read together, in one BatchGetItem). */
const PAGE_READ = 100;

/** An event item read back for the events API: its account and the event as sent. */
function loggedOf(item: Item): LoggedEvent | undefined {
  const event = item.event as LoggedEvent['event'] | undefined;
  return typeof item.accountId === 'string' && event && typeof event.id === 'string' ? { accountId: item.accountId, event } : undefined;
}

/**
 * The events API's reads (issue 29): an account's events from GSI1 (`ACCT#<id>#EVENTS`, by creation time,
 * newest first; one type through a filter), each page's deliveries in one consistent BatchGetItem, the
 * caller's `keep` deciding (delivery status) before the page is counted.
 */
export function dynamoEventLog(db: Db, table: string): EventLog {
  return {
    async list(query, paging, keep) {
      const skip = (paging.page - 1) * paging.pageSize;
      const found: ReturnType<typeof keep>[] = [];
      let kept = 0;
      let scanned = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await db.send(
          new QueryCommand({
            TableName: table,
            IndexName: 'GSI1',
            KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
            ...(query.type ? { FilterExpression: 'eventType = :type' } : {}),
            ExpressionAttributeValues: {
              ':pk': keys.eventListPartition(query.accountId),
              ':from': query.fromIso,
              ':to': `${query.toIso}~`,
              ...(query.type ? { ':type': query.type } : {}),
            },
            ScanIndexForward: false,
            Limit: PAGE_READ,
            ExclusiveStartKey: startKey,
          }),
        );
        const events = (out.Items ?? []).flatMap((item) => loggedOf(item) ?? []);
        scanned += out.ScannedCount ?? events.length;
        const deliveries = await batchGetConsistent(
          db,
          table,
          events.map((logged) => keys.delivery(logged.event.id)),
        );
        for (const [i, logged] of events.entries()) {
          const stored = deliveries[i];
          const value = keep(logged, stored ? (deliveryOf(stored) as WebhookDelivery) : undefined);
          if (value === undefined) continue;
          kept += 1;
          if (kept > skip) found.push(value);
          if (found.length === paging.pageSize) return found.flatMap((v) => (v === undefined ? [] : [v]));
        }
        startKey = out.LastEvaluatedKey;
      } while (startKey && scanned < paging.maxScanned);
      return found.flatMap((v) => (v === undefined ? [] : [v]));
    },
    async get(eventId) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.event(eventId), ConsistentRead: true }));
      return out.Item ? loggedOf(out.Item) : undefined;
    },
  };
}
