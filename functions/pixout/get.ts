import { withdrawalStore } from '../../shared/wiring/withdrawals';
import { requireCaller } from '../../shared/domain/auth/caller';
import { WITHDRAW_REFERENCE_SHAPE, withdrawView } from '../../shared/domain/withdrawal';
import { NotFoundError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';

/** GET /api/pixout/withdraw/{txid}: one withdraw by its reference; another account's → 404. */
export const handler = httpHandler(routes.getWithdraw, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const withdrawal = WITHDRAW_REFERENCE_SHAPE.test(params.txid) ? await withdrawalStore(runtime).get(params.txid) : undefined;
  if (!withdrawal || withdrawal.accountId !== accountId) throw new NotFoundError('Withdraw not found');
  return { status: 200, body: { success: true, withdraw: withdrawView(withdrawal) } };
});
