import { requireCaller } from '../../shared/auth/caller';
import { listCustomers } from '../../shared/customers/list';
import { httpHandler } from '../../shared/http/pipeline';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';

/** GET /api/customers: the caller's customers, newest first, filtered and paged. */
export const handler = httpHandler(routes.listCustomers, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const { page, limit, ...filters } = query;
  const customers = await listCustomers(runtime.db, runtime.config.tableName, accountId, { page, limit, filters }, (await runtime.serviceKeys()).personalData);
  return { status: 200, body: { customers, pagination: { page, limit } } };
});
