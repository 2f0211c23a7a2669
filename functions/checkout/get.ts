import { requireCaller } from '../../shared/domain/auth/caller';
import { checkoutsOfTxRef } from '../../shared/wiring/lookups';
import { checkoutView, chosenCheckout } from '../../shared/checkout/record';
import { NotFoundError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';
import { parseAmountToCents } from '../../shared/domain/money';

const TX_REF_SHAPE = /^[A-Za-z0-9_.:-]{1,100}$/;

/**
 * GET /api/checkout/{tx_ref}: the caller's checkout of that tx_ref (another account's, or none → 404).
 * When several share the tx_ref (an account without signed forms: docs/decisions.md), `checkout` is the
 * one `?total=` describes (or the newest PAID, or the newest) and `checkouts` lists them all.
 */
export const handler = httpHandler(routes.getCheckout, async ({ params, query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const checkouts = TX_REF_SHAPE.test(params.tx_ref) ? await checkoutsOfTxRef(runtime, accountId, params.tx_ref) : [];
  const checkout = chosenCheckout(checkouts, query.total === undefined ? undefined : parseAmountToCents(query.total));
  if (!checkout) throw new NotFoundError('Checkout not found');
  return {
    status: 200,
    body: { checkout: checkoutView(checkout), ...(checkouts.length > 1 ? { checkouts: checkouts.map(checkoutView) } : {}) },
  };
});
