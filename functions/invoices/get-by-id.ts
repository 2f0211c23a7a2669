import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer } from '../../shared/invoices/answer';
import { invoiceByNumericId, ownInvoice } from '../../shared/wiring/lookups';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/invoice/{invoice_id}: non-numeric → 400; unknown or another account's → 404. */
export const handler = httpHandler(routes.getInvoice, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const item = await invoiceByNumericId(runtime, Number(params.invoice_id));
  return invoiceAnswer(runtime, ownInvoice(item, accountId));
});
