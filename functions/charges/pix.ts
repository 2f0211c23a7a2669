import { requireCaller } from '../../shared/auth/caller';
import {
  assertDueDateNotPast,
  assertMethodEnabled,
  baseInvoice,
  checkedTotalCents,
  invoiceCreationWrites,
  merchantName,
  callProvider,
  unusedInvoiceIds,
} from '../../shared/invoices/create';
import { idempotentPixIds, invoiceIdDraw, invoiceItem, txidForReference } from '../../shared/invoices/record';
import { httpHandler } from '../../shared/http/pipeline';
import { formatCents } from '../../shared/domain/money';
import { pngDataUri, qrCodePng } from '../../shared/pix/qrcode';
import { looksUpCharges } from '../../shared/providers/port';
import { pixProvider } from '../../shared/providers/registry';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { normalizeDocument } from '../../shared/schemas/documents';

const PROVIDER_FAILED = 'The payment provider failed to answer; no charge was created. Retry with the same Idempotency-Key.';

/**
 * POST /api/pix/create: an immediate Pix charge with its BR Code and QR code (PENDING until paid).
 * The ids are checked unused before the provider is asked, and the provider is asked once: an id
 * taken meanwhile fails the commit with 503 (nothing recorded), never a second registration.
 */
export const handler = httpHandler(routes.createPix, async ({ body, caller, idempotencyKey, runtime, now }) => {
  const account = requireCaller(caller);
  assertMethodEnabled(account, 'pix');
  assertDueDateNotPast(body.due_date, now);
  const total = checkedTotalCents(body, 'pix');
  // With an Idempotency-Key the txid is derived from it: a retry after a 502 registers nothing new at the PSP.
  const derived = idempotencyKey === undefined ? undefined : idempotentPixIds(account.accountId, idempotencyKey);
  const ids = await unusedInvoiceIds(runtime, now, derived && { reference: derived.reference, invoiceId: invoiceIdDraw.numericId(now) });
  const txid = derived?.reference === ids.reference ? derived.txid : txidForReference(ids.reference);
  const payer = { email: body.email, name: body.client, document: body.document ? normalizeDocument(body.document) : undefined };
  const provider = pixProvider(runtime.config);
  const charge = await callProvider(
    provider.createPixCharge({
      reference: ids.reference,
      txid,
      amountCents: total,
      dueDate: body.due_date,
      merchantName: merchantName(account),
      payer,
    }),
    runtime.config.payments.timeoutMs,
    PROVIDER_FAILED,
  );
  // Drawn once, here: stored with the invoice (reads answer it as it is), and answered now.
  const qrPng = qrCodePng(charge.copy);
  const item = invoiceItem(
    {
      ...baseInvoice(account, body, ids, total, now),
      method: 'pix',
      status: 'PENDING',
      payer,
      pix: { txid: charge.txid, location: charge.location, copy: charge.copy, qrPng },
      provider: provider.name,
      awaitsPixLookup: looksUpCharges(provider),
    },
    (await runtime.serviceKeys()).personalData,
  );
  return {
    status: 200,
    body: {
      invoice: {
        reference: ids.reference,
        total: formatCents(total),
        txid: charge.txid,
        due_date: body.due_date,
        copy: charge.copy,
        qrcode: pngDataUri(qrPng),
      },
    },
    writes: invoiceCreationWrites(runtime.config.tableName, item),
  };
});
