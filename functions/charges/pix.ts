import { requireCaller } from '../../shared/auth/caller';
import {
  assertDueDateNotPast,
  assertMethodEnabled,
  baseInvoice,
  checkedTotalCents,
  invoiceCreationWrites,
  merchantName,
  callProvider,
} from '../../shared/invoices/create';
import { invoiceItem, newInvoiceReference, txidForReference } from '../../shared/invoices/record';
import { httpHandler } from '../../shared/http/pipeline';
import { newNumericId } from '../../shared/ids';
import { formatCents } from '../../shared/money';
import { qrCodePngDataUri } from '../../shared/pix/qrcode';
import { providerFor } from '../../shared/providers/select';
import { routes } from '../../shared/http/routes';
import { normalizeDocument } from '../../shared/schemas/documents';

const PROVIDER_FAILED = 'The payment provider failed to answer; no charge was created. Retry with the same Idempotency-Key.';

/** POST /api/pix/create: an immediate Pix charge with its BR Code and QR code (PENDING until paid). */
export const handler = httpHandler(routes.createPix, async ({ body, caller, runtime, now }) => {
  const account = requireCaller(caller);
  assertMethodEnabled(account, 'pix');
  assertDueDateNotPast(body.due_date, now);
  const total = checkedTotalCents(body, 'pix');
  const ids = { invoiceId: newNumericId(now), reference: newInvoiceReference() };
  const payer = { email: body.email, name: body.client, document: body.document ? normalizeDocument(body.document) : undefined };
  const charge = await callProvider(
    providerFor(runtime.config).createPixCharge({
      reference: ids.reference,
      txid: txidForReference(ids.reference),
      amountCents: total,
      dueDate: body.due_date,
      merchantName: merchantName(account),
      payer,
    }),
    runtime.config.payments.timeoutMs,
    PROVIDER_FAILED,
  );
  const qrcode = await qrCodePngDataUri(charge.copy);
  const item = invoiceItem(
    {
      ...baseInvoice(account, body, ids, total, now),
      method: 'pix',
      status: 'PENDING',
      payer,
      pix: { txid: charge.txid, location: charge.location, copy: charge.copy },
    },
    (await runtime.serviceKeys()).personalData,
  );
  return {
    status: 200,
    body: { invoice: { reference: ids.reference, total: formatCents(total), txid: charge.txid, due_date: body.due_date, copy: charge.copy, qrcode } },
    writes: invoiceCreationWrites(runtime.config.tableName, item),
  };
});
