import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';
import { listWithdrawals } from '../../shared/withdrawals/list';
import { withdrawView } from '../../shared/withdrawals/record';

/** GET /api/pixout/list: the caller's withdrawals, newest first, 25 a page; a malformed filter → 400. */
export const handler = httpHandler(routes.listWithdrawals, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const items = await listWithdrawals(runtime, accountId, query);
  const { personalData } = await runtime.serviceKeys();
  return { status: 200, body: { success: true, withdrawals: items.map((item) => withdrawView(item, personalData)) } };
});
