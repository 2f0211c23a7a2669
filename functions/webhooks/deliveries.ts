import { requireCaller } from '../../shared/domain/auth/caller';
import { deliveryView } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/pipeline';
import { webhooksRoutes as routes } from '../../shared/http/route-table/webhooks';
import { DELIVERIES_SHOWN } from '../../shared/ports/webhooks';
import { webhookPorts } from '../../shared/wiring/webhooks';

/** GET /api/webhook/deliveries: the last 25 deliveries, newest first. */
export const handler = httpHandler(routes.webhookDeliveries, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const deliveries = await webhookPorts(runtime).webhooks.deliveries(accountId, DELIVERIES_SHOWN);
  return { status: 200, body: { deliveries: deliveries.map(deliveryView) } };
});
