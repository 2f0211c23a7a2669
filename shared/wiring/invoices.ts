import { type ChangeCompilers, commitMove, eventCompilers } from '../adapters/dynamo/changes';
import { checkoutCompilers } from '../adapters/dynamo/checkout-settle';
import { dynamoCheckouts } from '../adapters/dynamo/checkout-lookup';
import { dynamoInvoices, invoiceCompilers } from '../adapters/dynamo/invoices';
import { ledgerCompilers } from '../adapters/dynamo/ledger';
import type { InvoiceMovePorts } from '../app/invoices/apply-notification';
import { newEvent } from '../events/outbox';
import type { Runtime } from '../runtime';
import { compileContext } from './compile';

/** The changes of an invoice's move: the move, its balance transfer, its events, and its checkout's or order's move. */
export const invoiceMoveChanges: ChangeCompilers = { ...invoiceCompilers, ...ledgerCompilers, ...checkoutCompilers, ...eventCompilers };

/** What applying a provider's word to an invoice needs, over the runtime's table. */
export function invoiceMovePorts(runtime: Runtime): InvoiceMovePorts {
  const { db } = runtime;
  const table = runtime.config.tableName;
  return {
    invoices: dynamoInvoices(db, table),
    checkouts: dynamoCheckouts(db, table),
    newEvent,
    commitMove: (changes) => commitMove(db, compileContext(runtime), changes, invoiceMoveChanges),
  };
}
