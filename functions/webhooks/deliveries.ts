import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { keys } from '../../shared/adapters/dynamo/keys';

/** GET /api/webhook/deliveries: the last 25 deliveries, newest first. */
export const handler = httpHandler(routes.webhookDeliveries, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const out = await runtime.db.send(
    new QueryCommand({
      TableName: runtime.config.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.deliveryListPartition(accountId) },
      ScanIndexForward: false,
      Limit: 25,
    }),
  );
  const deliveries = (out.Items ?? []).map((d) => ({
    event_id: d.eventId,
    type: d.eventType,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt ?? null,
    last_status: d.lastStatus ?? null,
    last_error: d.lastError ?? null,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  }));
  return { status: 200, body: { deliveries } };
});
