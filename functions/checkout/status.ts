import { checkoutOfLink } from '../../shared/http/checkout/link';
import { callbackRedirect } from '../../shared/domain/checkout-record';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';

/** GET /checkout/{reference}/{token}/status: what the page polls; once PAID, where to send the payer. */
export const handler = httpHandler(routes.checkoutStatus, async ({ params, runtime }) => {
  const checkout = await checkoutOfLink(runtime, params);
  return { status: 200, body: { status: checkout.status, redirect_url: checkout.status === 'PAID' ? callbackRedirect(checkout) : null } };
});
