import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer, invoiceByPointer, ownInvoice } from '../../shared/invoices/lookup';
import { isValidTxid } from '../../shared/pix/txid';
import { routes } from '../../shared/routes';
import { keys } from '../../shared/storage/keys';

/** GET /api/pix/txid/{txid}: the Pix invoice of that txid (another account's → 404). */
export const handler = httpHandler(routes.getPixByTxid, async ({ params, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const item = isValidTxid(params.txid) ? await invoiceByPointer(runtime, keys.pixTxidReservation(params.txid)) : undefined;
  return invoiceAnswer(runtime, ownInvoice(item, accountId));
});
