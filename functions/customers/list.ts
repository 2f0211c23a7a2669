import { listCustomers } from '../../shared/app/customers/list-customers';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';
import { customerPorts } from '../../shared/wiring/customers';

/** GET /api/customers: the caller's customers, newest first, filtered and paged. */
export const handler = httpHandler(routes.listCustomers, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const { page, limit, ...filters } = query;
  const customers = await listCustomers(customerPorts(runtime), { accountId, page, limit, filters });
  return { status: 200, body: { customers, pagination: { page, limit } } };
});
