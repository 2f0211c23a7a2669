import { createCustomer } from '../../shared/app/customers/create-customer';
import { requireCaller } from '../../shared/auth/caller';
import { customerView } from '../../shared/customers/record';
import { httpHandler } from '../../shared/http/pipeline';
import { customerChanges } from '../../shared/wiring/customers';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';
import { newNumericId } from '../../shared/ids';

/** POST /api/customer: registers a payer. The id's reservation and the customer are written together. */
export const handler = httpHandler(
  routes.createCustomer,
  async ({ body, caller, now }) => {
    const { accountId } = requireCaller(caller);
    const { answer, changes } = createCustomer({ accountId, id: newNumericId(now), body, now });
    return { status: 200, body: { customer: customerView(answer) }, changes };
  },
  { changes: customerChanges },
);
