import { apiPixChargeIds, createApiPixCharge } from '../../shared/app/charges/create-pix-charge';
import { requireCaller } from '../../shared/domain/auth/caller';
import { formatCents } from '../../shared/domain/money';
import { httpHandler, type PrepareInput } from '../../shared/http/pipeline';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { pngDataUri } from '../../shared/domain/qr-code-image';
import { invoiceChanges, invoiceIds, pixChargePorts } from '../../shared/wiring/charges';

const PROVIDER_FAILED = 'The payment provider failed to answer; no charge was created. Retry with the same Idempotency-Key.';

/** The ids checked unused beside the gate and the lock (issue 26): the charge's only reads. */
function unusedIds({ caller, idempotencyKey, runtime, now }: Pick<PrepareInput, 'caller' | 'idempotencyKey' | 'runtime' | 'now'>) {
  return apiPixChargeIds(invoiceIds(runtime), requireCaller(caller).accountId, idempotencyKey, now);
}

/**
 * POST /api/pix/create (shared/app/charges/create-pix-charge.ts): an immediate Pix charge with its BR
 * Code and QR code (PENDING until paid). The ids are checked unused before the provider is asked, and
 * the provider is asked once: an id taken meanwhile fails the commit with 503 (nothing recorded), never
 * a second registration.
 */
export const handler = httpHandler(
  routes.createPix,
  async ({ body, caller, idempotencyKey, runtime, now, prepared }) => {
    const { answer, changes } = await createApiPixCharge(pixChargePorts(runtime), {
      caller: requireCaller(caller),
      body,
      idempotencyKey,
      unused: prepared,
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
          total: formatCents(answer.totalCents),
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
