import type { Change } from '../../domain/changes';
import type { Customer } from '../../domain/customer';
import { type InvoiceBase, type InvoiceIds, type NewInvoice, pendingInvoice } from '../../domain/invoice';
import { ValidationError } from '../../errors';
import type { CustomerStore } from '../../ports/customers';
import type { InvoiceIdPort } from '../../ports/invoices';
import type { PaymentProvider } from '../../providers/port';
import { callProvider } from './call-provider';

export type BoletoChargePorts = { ids: InvoiceIdPort; customers: CustomerStore; provider: Pick<PaymentProvider, 'name' | 'registerBoleto'>; timeoutMs: number };

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
};

/** The payer of a boleto: one of the account's customers with a full address (422 on customer otherwise). */
async function boletoPayer(customers: CustomerStore, accountId: string, customerId: number): Promise<Customer> {
  const customer = await customers.get(accountId, customerId);
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
  const customer = await boletoPayer(ports.customers, request.accountId, request.customerId);
  const ids = await ports.ids.unused(request.now);
  const payer = { name: customer.name, email: customer.email, document: customer.document };
  const registered = await callProvider(
    ports.provider.registerBoleto({
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
