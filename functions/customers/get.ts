import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { requireCaller } from '../../shared/auth/caller';
import { customerView } from '../../shared/customers/record';
import { NotFoundError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';
import { keys } from '../../shared/adapters/dynamo/keys';

/** GET /api/customer/{id}: one of the caller's customers; another account's answers 404. */
export const handler = httpHandler(routes.getCustomer, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const out = await runtime.db.send(
    new GetCommand({ TableName: runtime.config.tableName, Key: keys.customer(accountId, Number(params.id)), ConsistentRead: true }),
  );
  if (!out.Item) throw new NotFoundError('Customer not found');
  return { status: 200, body: { customer: customerView(out.Item, (await runtime.serviceKeys()).personalData) } };
});
