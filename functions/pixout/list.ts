import { withdrawalStore } from '../../shared/wiring/withdrawals';
import { requireCaller } from '../../shared/domain/auth/caller';
import { withdrawView } from '../../shared/domain/withdrawal';
import { httpHandler } from '../../shared/http/pipeline';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';

/** GET /api/pixout/list: the caller's withdrawals, newest first, 25 a page; a malformed filter → 400. */
export const handler = httpHandler(routes.listWithdrawals, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const withdrawals = await withdrawalStore(runtime).list(accountId, query);
  return { status: 200, body: { success: true, withdrawals: withdrawals.map(withdrawView) } };
});
