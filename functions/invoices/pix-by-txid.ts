import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer } from '../../shared/http/views/invoice-answer';
import { invoiceLookup } from '../../shared/wiring/lookups';
import { ownInvoice } from '../../shared/http/views/invoice-view';
import { isValidTxid } from '../../shared/pix/txid';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/pix/txid/{txid}: the Pix invoice of that txid (another account's → 404). */
export const handler = httpHandler(routes.getPixByTxid, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const item = isValidTxid(params.txid) ? await invoiceLookup(runtime).byTxid(params.txid) : undefined;
  return invoiceAnswer(runtime, ownInvoice(item, accountId));
});
