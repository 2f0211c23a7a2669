import { httpHandler } from '../../shared/http/pipeline';
import { formatCents } from '../../shared/domain/money';
import { accountRoutes as routes } from '../../shared/http/route-table/account';
import { ledgerReader } from '../../shared/wiring/ledger';
import { requireCaller } from '../../shared/domain/auth/caller';

/**
 * GET /api/balance: the caller's available balance and what its withdrawals in flight hold (`reserved`:
 * an addition, compatible), both sums of its balance shards read in one consistent BatchGetItem.
 */
export const handler = httpHandler(routes.balance, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const cents = await ledgerReader(runtime).balance(accountId);
  return { status: 200, body: { balance: { available: formatCents(cents.availableCents), reserved: formatCents(cents.reservedCents), currency: 'BRL' } } };
});
