import { createPixCharge, pixChargeIds } from '../../shared/app/charges/create-pix-charge';
import { requireCaller } from '../../shared/domain/auth/caller';
import { formatCents } from '../../shared/domain/money';
import { httpHandler, type PrepareInput } from '../../shared/http/pipeline';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import {
  assertDueDateNotPast,
  assertMethodEnabled,
  assertPixDueDateCarried,
  baseInvoice,
  checkedTotalCents,
  merchantName,
} from '../../shared/app/charges/charge-request';
import { idempotentPixIds, invoiceIdDraw } from '../../shared/platform/invoice-references';
import { pngDataUri } from '../../shared/adapters/qrcode/png';
import { normalizeDocument } from '../../shared/domain/schemas/documents';
import { invoiceChanges, invoiceIds, pixChargePorts } from '../../shared/wiring/charges';

const PROVIDER_FAILED = 'The payment provider failed to answer; no charge was created. Retry with the same Idempotency-Key.';

/** With an Idempotency-Key the txid is derived from it: a retry after a 502 registers nothing new at the PSP. */
function proposedIds(accountId: string, idempotencyKey: string | undefined) {
  if (idempotencyKey === undefined) return undefined;
  const derived = idempotentPixIds(accountId, idempotencyKey);
  return { reference: derived.reference, txid: derived.txid, invoiceId: invoiceIdDraw.numericId(derived.reference) };
}

/** The ids checked unused beside the gate and the lock (issue 26): the charge's only reads. */
async function unusedIds({ caller, idempotencyKey, runtime, now }: Pick<PrepareInput, 'caller' | 'idempotencyKey' | 'runtime' | 'now'>) {
  const proposed = proposedIds(requireCaller(caller).accountId, idempotencyKey);
  return { proposed, ids: await pixChargeIds(invoiceIds(runtime), now, proposed) };
}

/**
 * POST /api/pix/create: an immediate Pix charge with its BR Code and QR code (PENDING until paid).
 * The ids are checked unused before the provider is asked, and the provider is asked once: an id
 * taken meanwhile fails the commit with 503 (nothing recorded), never a second registration.
 */
export const handler = httpHandler(
  routes.createPix,
  async ({ body, caller, idempotencyKey, runtime, now, prepared }) => {
    const account = requireCaller(caller);
    assertMethodEnabled(account, 'pix');
    assertDueDateNotPast(body.due_date, now);
    assertPixDueDateCarried(body.due_date, now);
    const total = checkedTotalCents(body, 'pix');
    const { answer, changes } = await createPixCharge(pixChargePorts(runtime), {
      base: (ids) => baseInvoice(account, body, ids, total, now),
      totalCents: total,
      dueDate: body.due_date,
      merchantName: merchantName(account),
      payer: { email: body.email, name: body.client, document: body.document ? normalizeDocument(body.document) : undefined },
      proposed: prepared?.proposed ?? proposedIds(account.accountId, idempotencyKey),
      unused: prepared?.ids,
      failure: PROVIDER_FAILED,
      now,
    });
    const pix = answer.pix;
    if (!pix?.qrPng) throw new Error('A Pix charge has its BR Code');
    return {
      status: 200,
      body: {
        invoice: {
          reference: answer.reference,
          total: formatCents(total),
          txid: pix.txid,
          due_date: answer.dueDate,
          copy: pix.copy,
          qrcode: pngDataUri(pix.qrPng),
        },
      },
      changes,
    };
  },
  {
    changes: invoiceChanges,
    prepare: unusedIds,
  },
);
