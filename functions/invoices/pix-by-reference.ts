import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer } from '../../shared/http/views/invoice-answer';
import { invoiceLookup } from '../../shared/wiring/lookups';
import { ownInvoice } from '../../shared/http/views/invoice-view';
import { REFERENCE_SHAPE } from '../../shared/domain/invoice-ids';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/pix/invoice/{ref}: the Pix invoice of that reference (another method, or account → 404). */
export const handler = httpHandler(routes.getPixByReference, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const item = REFERENCE_SHAPE.test(params.ref) ? await invoiceLookup(runtime).byReference(params.ref) : undefined;
  return invoiceAnswer(
    runtime,
    ownInvoice(item, accountId, (i) => i.method === 'pix'),
  );
});
