import { lastEncodableDueDate } from '../../shared/domain/boleto-barcode';
import { requireCaller } from '../../shared/domain/auth/caller';
import { brazilDate } from '../../shared/domain/brazil-dates';
import { ValidationError } from '../../shared/domain/errors';
import { httpHandler, type PrepareInput } from '../../shared/http/pipeline';
import { assertDueDateNotPast, assertMethodEnabled, baseInvoice, checkedTotalCents, lateRulesOf, merchantName } from '../../shared/app/charges/charge-request';
import { pngDataUri } from '../../shared/adapters/qrcode/png';
import { boletoUrl } from '../../shared/platform/invoice-references';
import { boletoChargeReads, createBoletoCharge } from '../../shared/app/charges/create-boleto-charge';
import { formatCents } from '../../shared/domain/money';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { chargePorts, invoiceChanges, pixDueCharges } from '../../shared/wiring/charges';
import type { boletoCreateBodySchema } from '../../shared/http/route-table/charges';

/**
 * 422 on due_date past the last day the barcode's due-date factor can carry in the current cycle
 * (FEBRABAN: factor 1000 on 2025-02-22 up to 9999 on 2049-10-13, then 1000 again): a later date would
 * be read by banks as a date 9000 days earlier, already overdue.
 */
function assertDueDateEncodable(dueDate: string, now: Date): void {
  const last = lastEncodableDueDate(brazilDate(now));
  if (dueDate > last) {
    throw new ValidationError({ due_date: [`Must be ${last} or earlier: a boleto barcode cannot carry a later due date`] });
  }
}

const PROVIDER_FAILED = 'The payment provider failed to answer; no boleto was created. Retry with the same Idempotency-Key.';

/** The payer and ids checked unused, read beside the gate and the lock (issue 26): the charge's only reads. */
function chargeReads({ body, caller, runtime, now }: PrepareInput<typeof boletoCreateBodySchema>) {
  return boletoChargeReads(chargePorts(runtime), requireCaller(caller).accountId, body.customer, now);
}

/**
 * POST /api/boleto/create: a boleto for one of the caller's customers (PENDING until paid). The ids
 * are checked unused before the boleto is registered, and it is registered once: an id taken
 * meanwhile fails the commit with 503 (nothing recorded), never a second registration. For an account
 * with Pix enabled (and a Pix provider with due-date charges) it is a BolePix: the same invoice also
 * carries a due-date Pix charge (txid, copy, qrcode in the answer), with the same late-payment rules.
 */
export const handler = httpHandler(
  routes.createBoleto,
  async ({ body, caller, runtime, now, prepared }) => {
    const account = requireCaller(caller);
    assertMethodEnabled(account, 'boleto');
    assertDueDateNotPast(body.due_date, now);
    assertDueDateEncodable(body.due_date, now);
    const total = checkedTotalCents(body, 'boleto');
    const { config } = runtime;
    const pixDue = account.account?.methods.includes('pix') ? pixDueCharges(runtime) : undefined;
    const { answer, changes } = await createBoletoCharge(
      { ...chargePorts(runtime), pixDue },
      {
        accountId: account.accountId,
        customerId: body.customer,
        base: (ids) => baseInvoice(account, body, ids, total, now),
        totalCents: total,
        dueDate: body.due_date,
        merchantName: merchantName(account),
        instructions: body.instructions,
        late: lateRulesOf(body, pixDue !== undefined),
        failure: PROVIDER_FAILED,
        now,
        read: prepared,
      },
    );
    const boleto = answer.boleto;
    if (!boleto) throw new Error('A boleto charge has its barcode');
    return {
      status: 200,
      body: {
        invoice: {
          reference: answer.reference,
          total: formatCents(total),
          due_date: answer.dueDate,
          status: 'PENDING',
          boleto: boletoUrl(config.publicBaseUrl, answer.reference, (await runtime.serviceKeys()).boletoLinks),
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
