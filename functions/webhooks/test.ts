import { sendTestEvent } from '../../shared/app/webhooks/send-test-event';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { webhookPorts, webhookChanges } from '../../shared/wiring/webhooks';

/** POST /api/webhook/test: queues one ping event through the same pipeline as every event (202); no URL → 409. */
export const handler = httpHandler(
  routes.testWebhook,
  async ({ caller, runtime, now }) => {
    const account = requireCaller(caller);
    const { answer, changes } = sendTestEvent(webhookPorts(runtime), {
      accountId: account.accountId,
      webhookConfigured: account.account?.webhookUrl !== undefined,
      now,
    });
    return { status: 202, body: answer, changes };
  },
  { changes: webhookChanges },
);
