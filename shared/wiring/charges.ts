import type { ChangeCompilers } from '../adapters/dynamo/changes';
import { dynamoInvoiceIds, invoiceCreatedCompilers } from '../adapters/dynamo/invoices';
import type { PixChargePorts } from '../app/charges/create-pix-charge';
import type { PaymentProvider, PixDueCharges } from '../ports/payment-provider';
import { paymentProvider, pixProvider } from './provider-registry';
import type { InvoiceIdPort } from '../ports/invoices';
import type { CustomerStore } from '../ports/customers';
import type { Runtime } from './runtime';
import { customerPorts } from './customers';

/**
 * The due-date Pix charges of the configured Pix provider (a BolePix's Pix half), or undefined when it
 * offers none (boletos stay plain).
 */
export function pixDueCharges(runtime: Runtime): { name: string; dueCharges: PixDueCharges } | undefined {
  const provider = pixProvider(runtime.config);
  return provider.dueCharges ? { name: provider.name, dueCharges: provider.dueCharges } : undefined;
}

/** The changes of the charges' use cases (a new invoice). */
export const invoiceChanges: ChangeCompilers = invoiceCreatedCompilers;

/** Invoice ids checked unused against the table. */
export function invoiceIds(runtime: Runtime): InvoiceIdPort {
  return dynamoInvoiceIds(runtime.db, runtime.config.tableName);
}

/** What a Pix charge needs: unused invoice ids from the table, the configured Pix provider and its time limit. */
export function pixChargePorts(runtime: Runtime): PixChargePorts {
  return { ids: dynamoInvoiceIds(runtime.db, runtime.config.tableName), provider: pixProvider(runtime.config), timeoutMs: runtime.config.payments.timeoutMs };
}

/** What a charge of the configured payment provider may need: unused invoice ids, the account's customers, the provider and its time limit. */
export type ChargePorts = { ids: InvoiceIdPort; customers: CustomerStore; provider: PaymentProvider; timeoutMs: number };

/**
 * The ports of any charge the configured payment provider serves (the boleto's, and a new method's:
 * its use case names the part it needs, so adding a method adds nothing here).
 */
export function chargePorts(runtime: Runtime): ChargePorts {
  return {
    ids: dynamoInvoiceIds(runtime.db, runtime.config.tableName),
    customers: customerPorts(runtime).customers,
    provider: paymentProvider(runtime.config),
    timeoutMs: runtime.config.payments.timeoutMs,
  };
}
