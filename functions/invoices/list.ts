import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { listInvoices } from '../../shared/wiring/lookups';
import { withQrCode } from '../../shared/invoices/qr-code';
import { invoiceView } from '../../shared/invoices/record';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/invoices: the caller's invoices, newest first, filtered and paged. */
export const handler = httpHandler(routes.listInvoices, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const items = await listInvoices(runtime, accountId, query);
  const serviceKeys = await runtime.serviceKeys();
  return {
    status: 200,
    body: {
      invoices: await Promise.all(items.map((item) => withQrCode(invoiceView(item, serviceKeys, runtime.config.publicBaseUrl), item))),
      pagination: { page: query.page, limit: query.limit },
    },
  };
});
