import { httpHandler } from '../../shared/http/pipeline';
import { formatCents } from '../../shared/domain/money';
import { accountRoutes as routes } from '../../shared/http/route-table/account';
import { availableCents } from '../../shared/ledger/balance';
import { requireCaller } from '../../shared/auth/caller';

/** GET /api/balance: the caller's available balance (the sum of its balance shards, one consistent BatchGetItem). */
export const handler = httpHandler(routes.balance, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const cents = await availableCents(runtime.db, runtime.config.tableName, accountId);
  return { status: 200, body: { balance: { available: formatCents(cents), currency: 'BRL' } } };
});
