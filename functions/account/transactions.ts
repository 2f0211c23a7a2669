import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { accountRoutes as routes } from '../../shared/http/route-table/account';
import { entryView } from '../../shared/http/views/ledger-view';
import { ledgerReader } from '../../shared/wiring/ledger';

/** GET /api/balance/transactions: the caller's ledger entries, newest first, filtered and paged. */
export const handler = httpHandler(routes.balanceTransactions, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const items = await ledgerReader(runtime).statement(accountId, query);
  return { status: 200, body: { transactions: items.map(entryView), pagination: { page: query.page, limit: query.limit } } };
});
