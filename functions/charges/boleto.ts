import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler, type PrepareInput } from '../../shared/http/pipeline';
import { pngDataUri } from '../../shared/domain/qr-code-image';
import { boletoUrl } from '../../shared/platform/invoice-references';
import { boletoChargeReads, createBoletoCharge } from '../../shared/app/charges/create-boleto-charge';
import { formatCents } from '../../shared/domain/money';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { boletoChargePorts, invoiceChanges } from '../../shared/wiring/charges';
import type { boletoCreateBodySchema } from '../../shared/http/route-table/charges';

const PROVIDER_FAILED = 'The payment provider failed to answer; no boleto was created. Retry with the same Idempotency-Key.';

/** The payer and ids checked unused, read beside the gate and the lock (issue 26): the charge's only reads. */
function chargeReads({ body, caller, runtime, now }: PrepareInput<typeof boletoCreateBodySchema>) {
  return boletoChargeReads(boletoChargePorts(runtime), requireCaller(caller).accountId, body.customer, now);
}

/**
 * POST /api/boleto/create (shared/app/charges/create-boleto-charge.ts): a boleto for one of the caller's
 * customers (PENDING until paid). The ids are checked unused before the boleto is registered, and it is
 * registered once: an id taken meanwhile fails the commit with 503 (nothing recorded), never a second
 * registration. For an account with Pix enabled (and a Pix provider with due-date charges) it is a
 * BolePix: the same invoice also carries a due-date Pix charge (txid, copy, qrcode in the answer), with
 * the same late-payment rules.
 */
export const handler = httpHandler(
  routes.createBoleto,
  async ({ body, caller, runtime, now, prepared }) => {
    const { answer, changes } = await createBoletoCharge(boletoChargePorts(runtime), {
      caller: requireCaller(caller),
      body,
      failure: PROVIDER_FAILED,
      now,
      read: prepared,
    });
    const boleto = answer.boleto;
    if (!boleto) throw new Error('A boleto charge has its barcode');
    return {
      status: 200,
      body: {
        invoice: {
          reference: answer.reference,
          total: formatCents(answer.totalCents),
          due_date: answer.dueDate,
          status: 'PENDING',
          boleto: boletoUrl(runtime.config.publicBaseUrl, answer.reference, (await runtime.serviceKeys()).boletoLinks),
          barcode: boleto.barcode,
          digitable: boleto.digitable,
          ...(answer.pix?.qrPng ? { txid: answer.pix.txid, copy: answer.pix.copy, qrcode: pngDataUri(answer.pix.qrPng) } : {}),
        },
      },
      changes,
    };
  },
  { changes: invoiceChanges, prepare: chargeReads },
);
