import type { ChangeCompilers } from '../adapters/dynamo/changes';
import { dynamoInvoiceIds, invoiceCreatedCompilers } from '../adapters/dynamo/invoices';
import type { BoletoChargePorts } from '../app/charges/create-boleto-charge';
import type { PixChargePorts } from '../app/charges/create-pix-charge';
import { paymentProvider, pixProvider } from '../providers/registry';
import type { InvoiceIdPort } from '../ports/invoices';
import type { Runtime } from '../runtime';
import { customerPorts } from './customers';

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

/** What a boleto charge needs: unused invoice ids, the account's customers, the configured provider and its time limit. */
export function boletoChargePorts(runtime: Runtime): BoletoChargePorts {
  return {
    ids: dynamoInvoiceIds(runtime.db, runtime.config.tableName),
    customers: customerPorts(runtime).customers,
    provider: paymentProvider(runtime.config),
    timeoutMs: runtime.config.payments.timeoutMs,
  };
}
