import { type ChangeCompilers, commitMove, eventCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { checkoutMoveCompilers } from '../adapters/dynamo/checkout-settle';
import { dynamoCheckouts } from '../adapters/dynamo/checkout-lookup';
import { dynamoInvoices, invoiceMovedCompilers } from '../adapters/dynamo/invoices';
import { ledgerCompilers } from '../adapters/dynamo/ledger';
import type { InvoiceMovePorts } from '../app/invoices/apply-notification';
import { newEvent } from '../platform/outbox-event';
import type { ChangeScope } from '../domain/changes';
import type { Runtime } from './runtime';
import { compileContext } from './compile';

/*
 * An invoice's moves, apart from ./invoices.ts: that module resolves Pix providers (the lookups, the
 * sweep), and the card functions, which move invoices too, bundle no Pix provider.
 */

/** The changes of an invoice's move: the move, its balance transfer, its events, and its checkout's or order's move. */
export const invoiceMoveChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(
  invoiceMovedCompilers,
  ledgerCompilers,
  checkoutMoveCompilers,
  eventCompilers,
);

/** What applying a provider's word to an invoice needs, over the runtime's table; `scope`: the route or worker that commits (its row names what it may change). */
export function invoiceMovePorts(runtime: Runtime, scope: ChangeScope): InvoiceMovePorts {
  const { db } = runtime;
  const table = runtime.config.tableName;
  return {
    invoices: dynamoInvoices(db, table),
    checkouts: dynamoCheckouts(db, table),
    newEvent,
    commitMove: (changes) => commitMove(db, compileContext(runtime, scope), changes, invoiceMoveChanges),
  };
}
