import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { keys } from '../../shared/adapters/dynamo/keys';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/config';

/** GET /api/webhook: the URL, whether a secret exists (never the secret), and the event types sent. */
export const handler = httpHandler(routes.getWebhook, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const account = (
    await runtime.db.send(
      new GetCommand({
        TableName: runtime.config.tableName,
        Key: keys.account(accountId),
        ConsistentRead: true,
        ProjectionExpression: 'webhookUrl, webhookSecretSealed',
      }),
    )
  ).Item;
  return {
    status: 200,
    body: {
      webhook: {
        url: typeof account?.webhookUrl === 'string' ? account.webhookUrl : null,
        secret_configured: typeof account?.webhookSecretSealed === 'string',
        events: WEBHOOK_EVENT_TYPES,
      },
    },
  };
});
