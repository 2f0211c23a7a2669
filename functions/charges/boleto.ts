import { lastEncodableDueDate } from '../../shared/boleto/barcode';
import { requireCaller } from '../../shared/auth/caller';
import { customerFields } from '../../shared/customers/fields';
import { brazilDate } from '../../shared/dates';
import { ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import {
  assertDueDateNotPast,
  assertMethodEnabled,
  baseInvoice,
  checkedTotalCents,
  invoiceCreationWrites,
  merchantName,
  callProvider,
  unusedInvoiceIds,
} from '../../shared/invoices/create';
import { boletoUrl, invoiceItem } from '../../shared/invoices/record';
import { formatCents } from '../../shared/domain/money';
import { paymentProvider } from '../../shared/providers/registry';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { customerPorts } from '../../shared/wiring';

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

/**
 * POST /api/boleto/create: a boleto for one of the caller's customers (PENDING until paid). The ids
 * are checked unused before the boleto is registered, and it is registered once: an id taken
 * meanwhile fails the commit with 503 (nothing recorded), never a second registration.
 */
export const handler = httpHandler(routes.createBoleto, async ({ body, caller, runtime, now }) => {
  const account = requireCaller(caller);
  assertMethodEnabled(account, 'boleto');
  assertDueDateNotPast(body.due_date, now);
  assertDueDateEncodable(body.due_date, now);
  const total = checkedTotalCents(body, 'boleto');
  const { config } = runtime;
  const serviceKeys = await runtime.serviceKeys();
  const found = await customerPorts(runtime).customers.get(account.accountId, body.customer);
  if (!found) throw new ValidationError({ customer: ['Not one of your customers'] });
  const customer = customerFields(found);
  if (!customer.zipcode || !customer.street || !customer.city || !customer.state) {
    throw new ValidationError({ customer: ['The customer needs a full address for a boleto'] });
  }
  const ids = await unusedInvoiceIds(runtime, now);
  const payer = { name: customer.name, email: customer.email, document: customer.document };
  const provider = paymentProvider(config);
  const registered = await callProvider(
    provider.registerBoleto({
      reference: ids.reference,
      invoiceId: ids.invoiceId,
      amountCents: total,
      dueDate: body.due_date,
      merchantName: merchantName(account),
      payer,
      instructions: body.instructions,
    }),
    config.payments.timeoutMs,
    PROVIDER_FAILED,
  );
  const item = invoiceItem(
    {
      ...baseInvoice(account, body, ids, total, now),
      method: 'boleto',
      status: 'PENDING',
      payer,
      boleto: { barcode: registered.barcode, digitable: registered.digitable, customerId: customer.id, instructions: body.instructions },
      provider: provider.name,
    },
    serviceKeys.personalData,
  );
  return {
    status: 200,
    body: {
      invoice: {
        reference: ids.reference,
        total: formatCents(total),
        due_date: body.due_date,
        status: 'PENDING',
        boleto: boletoUrl(config.publicBaseUrl, ids.reference, serviceKeys.boletoLinks),
        barcode: registered.barcode,
        digitable: registered.digitable,
      },
    },
    writes: invoiceCreationWrites(config.tableName, item),
  };
});
