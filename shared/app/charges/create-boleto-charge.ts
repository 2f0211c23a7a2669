import type { Change } from '../../domain/changes';
import type { Customer } from '../../domain/customer';
import { type InvoiceBase, type InvoiceIds, type NewInvoice, pendingInvoice } from '../../domain/invoice';
import { ValidationError } from '../../errors';
import type { CustomerStore } from '../../ports/customers';
import type { InvoiceIdPort } from '../../ports/invoices';
import type { PaymentProvider } from '../../providers/port';
import { callProvider } from './call-provider';

export type BoletoChargePorts = { ids: InvoiceIdPort; customers: CustomerStore; provider: { name: string; charges: Pick<PaymentProvider['charges'], 'boleto'> }; timeoutMs: number };

export type BoletoChargeRequest = {
  accountId: string;
  /** The payer: one of the account's customers, with a full address. */
  customerId: number;
  base: (ids: InvoiceIds) => InvoiceBase;
  totalCents: number;
  dueDate: string;
  merchantName: string;
  instructions?: string;
  failure: string;
  now: Date;
  /** The payer and the ids already read for it (boletoChargeReads, beside the gate): not read again. */
  read?: BoletoChargeReads;
};

/** A boleto charge's reads: the payer as stored (undefined: not one of the account's customers) and ids checked unused. */
export type BoletoChargeReads = { customer: Customer | undefined; ids: InvoiceIds };

/** A boleto charge's reads, together: its only reads, which a route sends beside its gate. */
export async function boletoChargeReads(ports: Pick<BoletoChargePorts, 'ids' | 'customers'>, accountId: string, customerId: number, now: Date): Promise<BoletoChargeReads> {
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

/**
 * Creates a boleto charge: the payer checked, ids checked unused BEFORE the boleto is registered, the
 * provider asked once within its time limit (a failure → 502, nothing recorded), and the PENDING invoice
 * as ONE change (`invoice.created`: an id taken after the check fails the commit with 503, never a
 * second registration).
 */
export async function createBoletoCharge(ports: BoletoChargePorts, request: BoletoChargeRequest): Promise<{ answer: NewInvoice; changes: Change[] }> {
  const read = request.read ?? (await boletoChargeReads(ports, request.accountId, request.customerId, request.now));
  const customer = boletoPayer(read.customer);
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
  const invoice = pendingInvoice(request.base(ids), ids, { dueDate: request.dueDate, payer, provider: ports.provider.name }, {
    method: 'boleto',
    boleto: { barcode: registered.barcode, digitable: registered.digitable, customerId: customer.id, instructions: request.instructions },
  });
  return { answer: invoice, changes: [{ kind: 'invoice.created', invoice }] };
}
