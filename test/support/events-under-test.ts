import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OutboxEvent } from '../../shared/events/outbox';
import { keys } from '../../shared/storage/keys';
import { accountStore } from './api';

/** Stores an event under its key, but not as a stream-forwarded type: only the test's own sender sees it. */
export async function putEventUnderTest(accountId: string, event: OutboxEvent): Promise<void> {
  const store = accountStore();
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.event(event.id), type: 'event-under-test', accountId, eventId: event.id, eventType: event.type, event, body: JSON.stringify(event) },
    }),
  );
}
