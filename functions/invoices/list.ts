import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { listInvoices } from '../../shared/invoices/lookup';
import { invoiceView } from '../../shared/invoices/record';
import { routes } from '../../shared/routes';

/** GET /api/invoices: the caller's invoices, newest first, filtered and paged. */
export const handler = httpHandler(routes.listInvoices, async ({ query, caller, runtime }) => {
  const { accountId } = requireCaller(caller);
  const items = await listInvoices(runtime, accountId, query);
  const serviceKeys = await runtime.serviceKeys();
  return {
    status: 200,
    body: { invoices: items.map((item) => invoiceView(item, serviceKeys, runtime.config.publicBaseUrl)), pagination: { page: query.page, limit: query.limit } },
  };
});
