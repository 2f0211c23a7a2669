import { rotateWebhookSecret } from '../../shared/app/webhooks/configure-webhook';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { webhookChanges } from '../../shared/wiring/webhooks';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { newWebhookSecret } from '../../shared/platform/webhook-secret';

/** POST /api/webhook/secret/rotate: a new secret, shown once; the old one stops signing at once. */
export const handler = httpHandler(
  routes.rotateWebhookSecret,
  async ({ caller, now }) => {
    const { accountId } = requireCaller(caller);
    const { answer, changes } = rotateWebhookSecret({ newSecret: newWebhookSecret }, { accountId, now });
    return { status: 200, body: { webhook: answer }, changes };
  },
  { changes: webhookChanges },
);
