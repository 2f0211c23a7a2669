import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newEvent, type OutboxEvent } from '../../shared/platform/outbox-event';
import { getRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { sealWebhookSecret } from '../../shared/platform/webhook-secret';
import { accountStore, newAccount } from './api';

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

/** A new account whose webhook points at `url`, and one ping event of it stored for the test's own sender only. */
export async function accountWithWebhookEvent(url: string, message: string): Promise<{ accountId: string; eventId: string }> {
  const store = accountStore();
  const account = await newAccount();
  const secret = sealWebhookSecret('whsec_test_secret_value_long_enough_0123456789', account.account_id, (await getRuntime().serviceKeys()).webhookSecrets);
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.account(account.account_id),
      UpdateExpression: 'SET webhookUrl = :u, webhookSecretSealed = :s',
      ExpressionAttributeValues: { ':u': url, ':s': secret },
    }),
  );
  const event = newEvent('ping', { message }, new Date());
  await putEventUnderTest(account.account_id, event);
  return { accountId: account.account_id, eventId: event.id };
}
