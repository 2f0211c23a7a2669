import { cancelInvoice } from '../../shared/app/invoices/cancel-invoice';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceAnswer } from '../../shared/http/views/invoice-answer';
import { invoicesRoutes as routes } from '../../shared/http/route-table/invoices';
import { qrCodeDrawer } from '../../shared/wiring/qr-code';
import { cancelInvoicePorts } from '../../shared/wiring/invoice-cancel';
import { invoiceMoveChanges } from '../../shared/wiring/invoice-moves';

/**
 * POST /api/invoice/{invoice_id}/cancel (shared/app/invoices/cancel-invoice.ts): the rails withdrawn at
 * their providers, then PENDING → CANCELED committed with the idempotency record; the invoice answered as
 * GET /api/invoice/{invoice_id} answers it.
 */
export const handler = httpHandler(
  routes.cancelInvoice,
  async ({ params, caller, runtime, now }) => {
    const { accountId } = requireCaller(caller);
    const result = await cancelInvoice(cancelInvoicePorts(runtime, routes.cancelInvoice), { accountId, invoiceId: Number(params.invoice_id), now });
    const answer = await invoiceAnswer(runtime, result.answer.invoice, qrCodeDrawer());
    return { status: answer.status, body: { success: true, ...answer.body }, changes: result.changes };
  },
  { changes: invoiceMoveChanges },
);
