import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { requireCaller } from '../../shared/auth/caller';
import { NotFoundError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';
import { keys } from '../../shared/adapters/dynamo/keys';
import { WITHDRAW_REFERENCE_SHAPE, withdrawView } from '../../shared/withdrawals/record';

/** GET /api/pixout/withdraw/{txid}: one withdraw by its reference; another account's → 404. */
export const handler = httpHandler(routes.getWithdraw, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const found = WITHDRAW_REFERENCE_SHAPE.test(params.txid)
    ? await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.withdraw(params.txid), ConsistentRead: true }))
    : undefined;
  if (!found?.Item || found.Item.accountId !== accountId) throw new NotFoundError('Withdraw not found');
  return { status: 200, body: { success: true, withdraw: withdrawView(found.Item, (await runtime.serviceKeys()).personalData) } };
});
