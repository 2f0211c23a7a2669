import { requireCaller } from '../../shared/domain/auth/caller';
import { subscribedTypes } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { webhookPorts } from '../../shared/wiring/webhooks';

/** GET /api/webhook: the URL, whether a secret exists (never the secret), and the event types subscribed. */
export const handler = httpHandler(routes.getWebhook, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const settings = await webhookPorts(runtime).webhooks.settings(accountId);
  return { status: 200, body: { webhook: { url: settings.url ?? null, secret_configured: settings.secretConfigured, events: subscribedTypes(settings) } } };
});
