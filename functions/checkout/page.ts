import { checkoutErrorPage } from '../../shared/http/checkout/browser';
import { checkoutOfLink } from '../../shared/http/checkout/link';
import { openCheckoutPage, settledPage } from '../../shared/http/checkout/page-answer';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';

/** GET /checkout/{reference}/{token}: the payer's page (Pix and card), the receipt once paid, 410 once abandoned. */
export const handler = httpHandler(
  routes.checkoutPage,
  async ({ params, event, runtime }) => {
    const checkout = await checkoutOfLink(runtime, params);
    return settledPage(checkout) ?? openCheckoutPage(runtime, checkout, event.cookies, 200);
  },
  { errorPage: checkoutErrorPage },
);
