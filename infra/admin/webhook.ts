import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionalCheckFailed, type Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';

export const DELIVERY_STATUSES: readonly string[] = ['pending', 'succeeded', 'failed'];

/** A refusal the operator can act on (exit 1): unknown event or account, a series still running. */
export class WebhookCommandError extends Error {}

/** What the webhook commands need: the table, SQS and the webhook queue. */
export type WebhookPorts = { db: Db; table: string; sqs: SQSClient; webhooks: string; now: () => Date };

async function get(ports: WebhookPorts, key: Record<string, string>): Promise<Item | undefined> {
  return (await ports.db.send(new GetCommand({ TableName: ports.table, Key: key, ConsistentRead: true }))).Item;
}

/**
 * Opens a new attempt series on a delivery that is over (succeeded or failed): one conditional update,
 * true only if the record is still as read (same status and attempts), sets it back to pending with
 * no attempts, no next time and no lease, so the sender's attempt 1 may claim it. The record keeps its
 * place in the account's list (GSI1SK) and counts its series (`series`, 1 for the first).
 */
async function reopen(ports: WebhookPorts, eventId: string, record: Item): Promise<void> {
  try {
    await ports.db.send(
      new UpdateCommand({
        TableName: ports.table,
        Key: keys.delivery(eventId),
        UpdateExpression:
          'SET #status = :pending, attempts = :zero, nextAttemptAt = :null, redeliveredAt = :now, updatedAt = :now, series = if_not_exists(series, :one) + :one REMOVE claimUntil',
        ConditionExpression: '#status = :status AND attempts = :attempts',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':zero': 0,
          ':null': null,
          ':now': ports.now().toISOString(),
          ':one': 1,
          ':status': record.status,
          ':attempts': record.attempts ?? 0,
        },
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new WebhookCommandError(`The delivery of ${eventId} changed meanwhile: run the command again`);
    throw err;
  }
}

/**
 * `webhook redeliver --event evt_…`: a new attempt series for one event (same event id, same stored
 * body, signed afresh by the sender). A delivery that is over (succeeded or failed) is reopened first
 * (see reopen); then attempt 1's message goes to the webhook queue, as the stream forwarder sends it.
 * A series still running (pending with attempts made, or an attempt holding its lease) is refused: its
 * own messages carry it on. A pending delivery with no attempt made (a redelivery whose message was
 * lost, or a series not started) gets attempt 1 again: a duplicate is absorbed by the sender's claim.
 */
export async function redeliver(ports: WebhookPorts, eventId: string): Promise<{ event_id: string; queued: true }> {
  const event = await get(ports, keys.event(eventId));
  if (!event) throw new WebhookCommandError(`Unknown event ${eventId}`);
  const account = await get(ports, keys.account(String(event.accountId)));
  if (!account || typeof account.webhookUrl !== 'string') throw new WebhookCommandError(`The account of ${eventId} has no webhook URL configured`);
  const record = await get(ports, keys.delivery(eventId));
  if (record) {
    const status = record.status ?? 'pending';
    if (status === 'succeeded' || status === 'failed') await reopen(ports, eventId, record);
    else if (Number(record.attempts ?? 0) > 0 || (typeof record.claimUntil === 'string' && record.claimUntil > ports.now().toISOString()))
      throw new WebhookCommandError(
        `The delivery of ${eventId} is still running (attempt ${Number(record.attempts ?? 0)} made, next at ${String(record.nextAttemptAt ?? 'now')}): redeliver it once it has succeeded or failed`,
      );
  }
  if (!ports.webhooks) throw new Error('The webhook queue URL is not known');
  const message = { eventId, attempt: 1, notBefore: ports.now().toISOString() };
  await ports.sqs.send(new SendMessageCommand({ QueueUrl: ports.webhooks, MessageBody: JSON.stringify(message) }));
  return { event_id: eventId, queued: true };
}

/** A delivery as `webhook deliveries` prints it (the API's view, with the account and the series). */
export function deliveryView(d: Item) {
  return {
    event_id: d.eventId,
    account_id: d.accountId,
    type: d.eventType,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    series: Number(d.series ?? 1),
    next_attempt_at: d.nextAttemptAt ?? null,
    last_status: d.lastStatus ?? null,
    last_error: d.lastError ?? null,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/** `webhook deliveries --account A [--status S]`: every delivery of the account, newest first (GSI1), optionally of one status. */
export async function deliveriesOf(ports: Pick<WebhookPorts, 'db' | 'table'>, accountId: string, status?: string): Promise<ReturnType<typeof deliveryView>[]> {
  const account = (await ports.db.send(new GetCommand({ TableName: ports.table, Key: keys.account(accountId) }))).Item;
  if (!account) throw new WebhookCommandError(`Unknown account ${accountId}`);
  const found: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ports.db.send(
      new QueryCommand({
        TableName: ports.table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.deliveryListPartition(accountId) },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return found.filter((d) => status === undefined || d.status === status).map(deliveryView);
}
