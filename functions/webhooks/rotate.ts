import { requireCaller } from '../../shared/auth/caller';
import { ConflictError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { keys } from '../../shared/adapters/dynamo/keys';
import { newWebhookSecret, SECRET_NOTICE_NEW, sealWebhookSecret } from '../../shared/webhooks/config';

/** POST /api/webhook/secret/rotate: a new secret, shown once; the old one stops signing at once. */
export const handler = httpHandler(routes.rotateWebhookSecret, async ({ caller, runtime, now }) => {
  const { accountId } = requireCaller(caller);
  const secret = newWebhookSecret();
  return {
    status: 200,
    body: { webhook: { secret, secret_notice: SECRET_NOTICE_NEW } },
    writes: [
      {
        Update: {
          TableName: runtime.config.tableName,
          Key: keys.account(accountId),
          UpdateExpression: 'SET webhookSecretSealed = :secret, webhookUpdatedAt = :now',
          ConditionExpression: 'attribute_exists(webhookUrl)',
          ExpressionAttributeValues: {
            ':secret': sealWebhookSecret(secret, accountId, (await runtime.serviceKeys()).webhookSecrets),
            ':now': now.toISOString(),
          },
        },
        onConditionFailed: () => new ConflictError('No webhook is configured: PUT /api/webhook first', 'webhook_not_configured'),
      },
    ],
  };
});
