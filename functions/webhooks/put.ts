import { configureWebhook } from '../../shared/app/webhooks/configure-webhook';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { webhookUrlCheck } from '../../shared/wiring/webhook-url';
import { webhookChanges } from '../../shared/wiring/webhooks';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { newWebhookSecret } from '../../shared/platform/webhook-secret';

/**
 * PUT /api/webhook: sets the URL after the SSRF rules (422 on url otherwise) and the event types it
 * receives (422 on events for an unknown one). The first configuration creates the signing secret and
 * shows it once; later updates keep it.
 */
export const handler = httpHandler(
  routes.putWebhook,
  async ({ body, caller, runtime, now }) => {
    const account = requireCaller(caller);
    const { answer, changes } = await configureWebhook(
      { checkUrl: webhookUrlCheck(runtime), newSecret: newWebhookSecret },
      { accountId: account.accountId, url: body.url, events: body.events, secretConfigured: account.account?.webhookSecretConfigured === true, now },
    );
    return { status: 200, body: { webhook: answer }, changes };
  },
  { changes: webhookChanges },
);
