import { requireCaller } from '../../shared/auth/caller';
import { customerView, newCustomerItem } from '../../shared/customers/record';
import { IdClashError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { newNumericId } from '../../shared/ids';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';
import { keys } from '../../shared/adapters/dynamo/keys';

/** POST /api/customer: registers a payer. The id's reservation and the customer are written together. */
export const handler = httpHandler(routes.createCustomer, async ({ body, caller, runtime, now }) => {
  const { accountId } = requireCaller(caller);
  const { personalData } = await runtime.serviceKeys();
  const customerId = newNumericId(now);
  const item = newCustomerItem(accountId, customerId, body, now, personalData);
  const table = runtime.config.tableName;
  return {
    status: 200,
    body: { customer: customerView(item, personalData) },
    writes: [
      {
        Put: {
          TableName: table,
          Item: { ...keys.customerIdReservation(customerId), type: 'customerId', accountId },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
        onConditionFailed: () => new IdClashError(),
      },
      { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }, onConditionFailed: () => new IdClashError() },
    ],
  };
});
