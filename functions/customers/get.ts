import { requireCaller } from '../../shared/domain/auth/caller';
import { customerView } from '../../shared/domain/customer-view';
import { NotFoundError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';
import { customerPorts } from '../../shared/wiring/customers';

/** GET /api/customer/{id}: one of the caller's customers; another account's answers 404. */
export const handler = httpHandler(routes.getCustomer, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const customer = await customerPorts(runtime).customers.get(accountId, Number(params.id));
  if (!customer) throw new NotFoundError('Customer not found');
  return { status: 200, body: { customer: customerView(customer) } };
});
