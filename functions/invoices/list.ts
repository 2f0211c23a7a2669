import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceReader } from '../../shared/wiring/lookups';
import { withQrCode } from '../../shared/invoices/qr-code';
import { invoiceView } from '../../shared/http/views/invoice-view';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';

/** GET /api/invoices: the caller's invoices, newest first, filtered and paged. */
export const handler = httpHandler(routes.listInvoices, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const invoices = await invoiceReader(runtime).list(accountId, query);
  const { boletoLinks } = await runtime.serviceKeys();
  return {
    status: 200,
    body: {
      invoices: await Promise.all(invoices.map((invoice) => withQrCode(invoiceView(invoice, boletoLinks, runtime.config.publicBaseUrl), invoice))),
      pagination: { page: query.page, limit: query.limit },
    },
  };
});
