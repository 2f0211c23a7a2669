import { requireCaller } from '../../shared/auth/caller';
import { ConflictError, ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { keys } from '../../shared/adapters/dynamo/keys';
import { newWebhookSecret, SECRET_NOTICE_KEPT, SECRET_NOTICE_NEW, sealWebhookSecret } from '../../shared/webhooks/config';
import { checkWebhookUrl } from '../../shared/webhooks/url-policy';

/**
 * PUT /api/webhook: sets the URL after the SSRF rules (422 on url otherwise). The first configuration
 * creates the signing secret and shows it once; later updates keep it.
 */
export const handler = httpHandler(routes.putWebhook, async ({ body, caller, runtime, now }) => {
  const account = requireCaller(caller);
  const checked = await checkWebhookUrl(body.url, {
    resolve: runtime.resolve,
    allowPrivateHosts: runtime.config.webhooks.allowPrivateHosts,
    dnsTimeoutMs: runtime.config.webhooks.dnsTimeoutMs,
  });
  if (!checked.ok) throw new ValidationError({ url: checked.errors });
  const url = checked.url.toString();
  const table = runtime.config.tableName;
  const first = typeof account.account?.webhookSecretSealed !== 'string';
  if (!first) {
    return {
      status: 200,
      body: { webhook: { url, secret_notice: SECRET_NOTICE_KEPT } },
      writes: [
        {
          Update: {
            TableName: table,
            Key: keys.account(account.accountId),
            UpdateExpression: 'SET webhookUrl = :url, webhookUpdatedAt = :now',
            ExpressionAttributeValues: { ':url': url, ':now': now.toISOString() },
          },
        },
      ],
    };
  }
  const secret = newWebhookSecret();
  return {
    status: 200,
    body: { webhook: { url, secret, secret_notice: SECRET_NOTICE_NEW } },
    writes: [
      {
        Update: {
          TableName: table,
          Key: keys.account(account.accountId),
          UpdateExpression: 'SET webhookUrl = :url, webhookSecretSealed = :secret, webhookUpdatedAt = :now',
          ConditionExpression: 'attribute_not_exists(webhookSecretSealed)',
          ExpressionAttributeValues: {
            ':url': url,
            ':secret': sealWebhookSecret(secret, account.accountId, (await runtime.serviceKeys()).webhookSecrets),
            ':now': now.toISOString(),
          },
        },
        onConditionFailed: () => new ConflictError('The webhook was configured by another request at the same time; repeat the request', 'conflict'),
      },
    ],
  };
});
