import { requireCaller } from '../../shared/auth/caller';
import { checkoutByTxRef } from '../../shared/checkout/lookup';
import { checkoutView } from '../../shared/checkout/record';
import { NotFoundError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';

const TX_REF_SHAPE = /^[A-Za-z0-9_.:-]{1,100}$/;

/** GET /api/checkout/{tx_ref}: the caller's checkout of that tx_ref (another account's, or none → 404). */
export const handler = httpHandler(routes.getCheckout, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const checkout = TX_REF_SHAPE.test(params.tx_ref) ? await checkoutByTxRef(runtime, accountId, params.tx_ref) : undefined;
  if (!checkout) throw new NotFoundError('Checkout not found');
  return { status: 200, body: { checkout: checkoutView(checkout) } };
});
