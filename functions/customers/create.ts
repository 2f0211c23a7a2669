import { createCustomer } from '../../shared/app/customers/create-customer';
import { requireCaller } from '../../shared/domain/auth/caller';
import { customerView } from '../../shared/domain/customer-view';
import { httpHandler } from '../../shared/http/pipeline';
import { customerChanges } from '../../shared/wiring/customers';
import { customersRoutes as routes } from '../../shared/http/route-table/customers';
import { newNumericId } from '../../shared/platform/ids';

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
