import type { Caller } from '../../domain/account';
import { lastEncodableDueDate } from '../../domain/boleto-barcode';
import { brazilDate } from '../../domain/brazil-dates';
import type { Change } from '../../domain/changes';
import type { Customer } from '../../domain/customer';
import { type InvoiceBase, type InvoiceIds, type NewInvoice, pendingInvoice } from '../../domain/invoice';
import { ValidationError } from '../../domain/errors';
import type { CustomerStore } from '../../ports/customers';
import type { InvoiceIdPort } from '../../ports/invoices';
import type { QrCodeDrawer } from '../../ports/qr-code';
import type { PaymentProvider, PixDueCharges } from '../../ports/payment-provider';
import type { LatePaymentRules } from '../../domain/late-payment';
import { txidForReference } from '../../platform/invoice-references';
import { logger } from '../../platform/logger';
import { callProvider } from './call-provider';
import { baseInvoice, checkedDatedCharge, type ChargeBody, type LatePaymentFields, lateRulesOf, merchantName } from './charge-request';

export type BoletoChargePorts = {
  ids: InvoiceIdPort;
  customers: CustomerStore;
  provider: { name: string; charges: Pick<PaymentProvider['charges'], 'boleto'>; writeOffBoleto?: PaymentProvider['writeOffBoleto'] };
  /** The Pix provider's due-date charges (a BolePix's Pix half, for an account with Pix enabled); absent: every boleto is plain. */
  pixDue?: { name: string; dueCharges: Pick<PixDueCharges, 'create'> };
  timeoutMs: number;
  /** Draws the Pix half's QR image, stored with the invoice. */
  qrCodes: QrCodeDrawer;
};

/** The boleto request as the use case reads it (the route's body schema gives it: shared/http/route-table/charges.ts). */
export type BoletoChargeBody = ChargeBody & LatePaymentFields & { customer: number; instructions?: string };

export type BoletoChargeRequest = {
  caller: Caller;
  body: BoletoChargeBody;
  /** The message of a provider failure (502). */
  failure: string;
  now: Date;
  /** The payer and the ids already read for it (boletoChargeReads, beside the gate): not read again. */
  read?: BoletoChargeReads;
};

/** What the boleto is registered for, once its request is checked. */
type CheckedBoleto = {
  base: (ids: InvoiceIds) => InvoiceBase;
  totalCents: number;
  dueDate: string;
  merchantName: string;
  instructions?: string;
  /** Late-payment rules, shared by the boleto and its Pix half. */
  late?: LatePaymentRules;
  failure: string;
};

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

/** A boleto charge's reads: the payer as stored (undefined: not one of the account's customers) and ids checked unused. */
export type BoletoChargeReads = { customer: Customer | undefined; ids: InvoiceIds };

/** A boleto charge's reads, together: its only reads, which a route sends beside its gate. */
export async function boletoChargeReads(
  ports: Pick<BoletoChargePorts, 'ids' | 'customers'>,
  accountId: string,
  customerId: number,
  now: Date,
): Promise<BoletoChargeReads> {
  const [customer, ids] = await Promise.all([ports.customers.get(accountId, customerId), ports.ids.unused(now)]);
  return { customer, ids };
}

/** The payer of a boleto: one of the account's customers with a full address (422 on customer otherwise). */
function boletoPayer(customer: Customer | undefined): Customer {
  if (!customer) throw new ValidationError({ customer: ['Not one of your customers'] });
  if (!customer.zipcode || !customer.street || !customer.city || !customer.state) {
    throw new ValidationError({ customer: ['The customer needs a full address for a boleto'] });
  }
  return customer;
}

/** API Pix's `devedor.nome` carries at most 200 characters (a customer's name may have 255). */
export const PIX_PAYER_NAME_MAX = 200;

/** A BolePix's payer must fit the Pix half's standard: 422 on customer before any provider is asked. */
function assertPixPayer(customer: Customer): void {
  if ([...customer.name.trim()].length > PIX_PAYER_NAME_MAX) {
    throw new ValidationError({
      customer: [
        `The customer's name is longer than a Pix charge carries (${PIX_PAYER_NAME_MAX} characters): shorten it, or create the boleto from an account without Pix`,
      ],
    });
  }
}

/** Registers the Pix half of a BolePix; when it fails, the boleto just registered is written off (best effort) before the failure is answered. */
async function registerPixHalf(
  ports: BoletoChargePorts & { pixDue: NonNullable<BoletoChargePorts['pixDue']> },
  request: CheckedBoleto & { late: LatePaymentRules },
  reference: string,
  payer: { name: string; document: string; email?: string },
) {
  try {
    return await callProvider(
      ports.pixDue.dueCharges.create({
        reference,
        txid: txidForReference(reference),
        amountCents: request.totalCents,
        dueDate: request.dueDate,
        merchantName: request.merchantName,
        payer,
        late: request.late,
      }),
      ports.timeoutMs,
      request.failure,
    );
  } catch (err) {
    await ports.provider.writeOffBoleto?.(reference).catch((writeOffError: unknown) => {
      logger.error('a boleto whose Pix half failed could not be written off', { reference, error: String(writeOffError) });
    });
    throw err;
  }
}

/**
 * POST /api/boleto/create: the account's boleto enabled (400 method_not_enabled), the due date today or
 * later and within the barcode's due-date cycle, the total within the boleto's ceiling (422), checked
 * before anything is read or asked; then the payer checked (one of the account's customers with a full
 * address; for a BolePix, a name the Pix half carries), ids checked unused BEFORE the boleto is registered, the
 * provider asked once within its time limit (a failure → 502, nothing recorded), and the PENDING invoice
 * as ONE change (`invoice.created`: an id taken after the check fails the commit with 503, never a
 * second registration). For an account with Pix enabled and `pixDue` (a Pix provider with due-date
 * charges) it is a BolePix: a due-date Pix charge for the same total, due date, payer and late-payment
 * rules is registered after the boleto (idempotent by txid), and both rails are on the one invoice.
 */
export async function createBoletoCharge(ports: BoletoChargePorts, request: BoletoChargeRequest): Promise<{ answer: NewInvoice; changes: Change[] }> {
  const { caller, body, now } = request;
  const total = checkedDatedCharge(caller, body, now, 'boleto', assertDueDateEncodable);
  // A BolePix when the account takes Pix and the Pix provider offers due-date charges; else a plain boleto.
  const pixDue = caller.account?.methods.includes('pix') ? ports.pixDue : undefined;
  const checked: CheckedBoleto = {
    base: (ids) => baseInvoice(caller, body, ids, total, now),
    totalCents: total,
    dueDate: body.due_date,
    merchantName: merchantName(caller),
    instructions: body.instructions,
    late: lateRulesOf(body, pixDue !== undefined),
    failure: request.failure,
  };
  const read = request.read ?? (await boletoChargeReads(ports, caller.accountId, body.customer, now));
  const customer = boletoPayer(read.customer);
  if (pixDue && checked.late) assertPixPayer(customer);
  const { ids } = read;
  const payer = { name: customer.name, email: customer.email, document: customer.document };
  const registered = await callProvider(
    ports.provider.charges.boleto({
      reference: ids.reference,
      invoiceId: ids.invoiceId,
      amountCents: checked.totalCents,
      dueDate: checked.dueDate,
      merchantName: checked.merchantName,
      payer,
      instructions: checked.instructions,
    }),
    ports.timeoutMs,
    checked.failure,
  );
  const { late } = checked;
  const pix = pixDue && late ? await registerPixHalf({ ...ports, pixDue }, { ...checked, late }, ids.reference, payer) : undefined;
  const invoice = pendingInvoice(
    checked.base(ids),
    ids,
    { dueDate: checked.dueDate, payer, provider: ports.provider.name },
    {
      method: 'boleto',
      boleto: { barcode: registered.barcode, digitable: registered.digitable, customerId: customer.id, instructions: checked.instructions },
      ...(pix
        ? {
            pix: {
              txid: pix.txid,
              location: pix.location,
              copy: pix.copy,
              qrPng: ports.qrCodes.png(pix.copy),
              ...(pixDue && pixDue.name !== ports.provider.name ? { provider: pixDue.name } : {}),
            },
          }
        : {}),
      ...(late ? { late } : {}),
    },
  );
  return { answer: invoice, changes: [{ kind: 'invoice.created', invoice }] };
}
