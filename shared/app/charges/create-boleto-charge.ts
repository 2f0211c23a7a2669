import type { Change } from '../../domain/changes';
import type { Customer } from '../../domain/customer';
import { type InvoiceBase, type InvoiceIds, type NewInvoice, pendingInvoice } from '../../domain/invoice';
import { ValidationError } from '../../domain/errors';
import type { CustomerStore } from '../../ports/customers';
import type { InvoiceIdPort } from '../../ports/invoices';
import type { PaymentProvider, PixDueCharges } from '../../ports/payment-provider';
import type { LatePaymentRules } from '../../domain/late-payment';
import { txidForReference } from '../../platform/invoice-references';
import { qrCodePng } from '../../adapters/qrcode/png';
import { logger } from '../../platform/logger';
import { callProvider } from './call-provider';

export type BoletoChargePorts = {
  ids: InvoiceIdPort;
  customers: CustomerStore;
  provider: { name: string; charges: Pick<PaymentProvider['charges'], 'boleto'>; writeOffBoleto?: PaymentProvider['writeOffBoleto'] };
  /** The Pix provider's due-date charges, when the boleto also carries Pix (BolePix); absent: a plain boleto. */
  pixDue?: { name: string; dueCharges: Pick<PixDueCharges, 'create'> };
  timeoutMs: number;
};

export type BoletoChargeRequest = {
  accountId: string;
  /** The payer: one of the account's customers, with a full address. */
  customerId: number;
  base: (ids: InvoiceIds) => InvoiceBase;
  totalCents: number;
  dueDate: string;
  merchantName: string;
  instructions?: string;
  /** Late-payment rules, shared by the boleto and its Pix half. */
  late?: LatePaymentRules;
  failure: string;
  now: Date;
  /** The payer and the ids already read for it (boletoChargeReads, beside the gate): not read again. */
  read?: BoletoChargeReads;
};

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
  request: BoletoChargeRequest & { late: LatePaymentRules },
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
 * Creates a boleto charge: the payer checked, ids checked unused BEFORE the boleto is registered, the
 * provider asked once within its time limit (a failure → 502, nothing recorded), and the PENDING invoice
 * as ONE change (`invoice.created`: an id taken after the check fails the commit with 503, never a
 * second registration). With `pixDue` it is a BolePix: a due-date Pix charge for the same total, due
 * date, payer and late-payment rules is registered after the boleto (idempotent by txid), and both
 * rails are on the one invoice.
 */
export async function createBoletoCharge(ports: BoletoChargePorts, request: BoletoChargeRequest): Promise<{ answer: NewInvoice; changes: Change[] }> {
  const read = request.read ?? (await boletoChargeReads(ports, request.accountId, request.customerId, request.now));
  const customer = boletoPayer(read.customer);
  if (ports.pixDue && request.late) assertPixPayer(customer);
  const { ids } = read;
  const payer = { name: customer.name, email: customer.email, document: customer.document };
  const registered = await callProvider(
    ports.provider.charges.boleto({
      reference: ids.reference,
      invoiceId: ids.invoiceId,
      amountCents: request.totalCents,
      dueDate: request.dueDate,
      merchantName: request.merchantName,
      payer,
      instructions: request.instructions,
    }),
    ports.timeoutMs,
    request.failure,
  );
  const { late } = request;
  const pixDue = ports.pixDue;
  const pix = pixDue && late ? await registerPixHalf({ ...ports, pixDue }, { ...request, late }, ids.reference, payer) : undefined;
  const invoice = pendingInvoice(
    request.base(ids),
    ids,
    { dueDate: request.dueDate, payer, provider: ports.provider.name },
    {
      method: 'boleto',
      boleto: { barcode: registered.barcode, digitable: registered.digitable, customerId: customer.id, instructions: request.instructions },
      ...(pix
        ? {
            pix: {
              txid: pix.txid,
              location: pix.location,
              copy: pix.copy,
              qrPng: qrCodePng(pix.copy),
              ...(pixDue && pixDue.name !== ports.provider.name ? { provider: pixDue.name } : {}),
            },
          }
        : {}),
      ...(late ? { late } : {}),
    },
  );
  return { answer: invoice, changes: [{ kind: 'invoice.created', invoice }] };
}
