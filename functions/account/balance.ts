import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { httpHandler } from '../../shared/http/pipeline';
import { formatCents } from '../../shared/money';
import { accountRoutes as routes } from '../../shared/http/route-table/account';
import { keys } from '../../shared/storage/keys';
import { requireCaller } from '../../shared/auth/caller';

/** GET /api/balance: the caller's available balance. */
export const handler = httpHandler(routes.balance, async ({ caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const out = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.balance(accountId), ConsistentRead: true }));
  return { status: 200, body: { balance: { available: formatCents(Number(out.Item?.availableCents ?? 0)), currency: 'BRL' } } };
});
