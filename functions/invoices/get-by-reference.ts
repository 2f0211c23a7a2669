import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer } from '../../shared/http/views/invoice-answer';
import { invoiceLookup } from '../../shared/wiring/lookups';
import { ownInvoice } from '../../shared/http/views/invoice-view';
import { REFERENCE_SHAPE } from '../../shared/domain/invoice-ids';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/invoice/ref/{ref_id}: another account's, or a malformed reference → 404. */
export const handler = httpHandler(routes.getInvoiceByReference, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const item = REFERENCE_SHAPE.test(params.ref_id) ? await invoiceLookup(runtime).byReference(params.ref_id) : undefined;
  return invoiceAnswer(runtime, ownInvoice(item, accountId));
});
