import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { accountRoutes as routes } from '../../shared/http/route-table/account';
import { entryView } from '../../shared/ledger/view';
import { statementPage } from '../../shared/adapters/dynamo/ledger-statement';

/** GET /api/balance/transactions: the caller's ledger entries, newest first, filtered and paged. */
export const handler = httpHandler(routes.balanceTransactions, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const items = await statementPage(runtime.db, runtime.config.tableName, accountId, query);
  return { status: 200, body: { transactions: items.map(entryView), pagination: { page: query.page, limit: query.limit } } };
});
