import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer } from '../../shared/http/views/invoice-answer';
import { invoiceReader } from '../../shared/wiring/lookups';
import { ownInvoice } from '../../shared/http/views/invoice-view';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/invoice/{invoice_id}: non-numeric → 400; unknown or another account's → 404. */
export const handler = httpHandler(routes.getInvoice, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const item = await invoiceReader(runtime).byNumericId(Number(params.invoice_id));
  return invoiceAnswer(runtime, ownInvoice(item, accountId));
});
