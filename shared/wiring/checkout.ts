import { type ChangeCompilers, commitChanges, eventCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoOpenCheckouts } from '../adapters/dynamo/checkout-index';
import { dynamoCheckouts } from '../adapters/dynamo/checkout-lookup';
import { checkoutCompilers } from '../adapters/dynamo/checkout-settle';
import { dynamoInvoiceIds, dynamoInvoices, invoiceCreatedCompilers } from '../adapters/dynamo/invoices';
import { ledgerCompilers } from '../adapters/dynamo/ledger';
import type { CheckoutCardPorts } from '../app/checkout/pay-checkout-by-card';
import type { UpkeepPorts } from '../app/checkout/upkeep';
import { newEvent } from '../platform/outbox-event';
import { paymentProvider } from './adapter-registry';
import type { ChangeScope } from '../domain/changes';
import type { Runtime } from './runtime';
import { attemptSlots, cardSettlePorts } from './cards';
import { compileContext } from './compile';

/** The changes of the checkout's card payments: the checkout's card attempts (its decline count) and payment, its invoice, credit and events. */
export const checkoutCardChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(checkoutCompilers, invoiceCreatedCompilers, ledgerCompilers, eventCompilers);

/** What the card form's payment needs, over the runtime's table and its configured card provider. */
export function checkoutCardPorts(runtime: Runtime, scope: ChangeScope): CheckoutCardPorts {
  const { db } = runtime;
  const table = runtime.config.tableName;
  return {
    accounts: dynamoAccountDirectory(db, table),
    checkouts: dynamoCheckouts(db, table),
    invoices: dynamoInvoices(db, table),
    slots: attemptSlots(runtime),
    limits: runtime.config.cardDeclines,
    // The invoice ids straight from the adapter, not through ./charges.ts: that module resolves Pix providers, and the card form bundles none.
    ids: dynamoInvoiceIds(db, table),
    provider: paymentProvider(runtime.config),
    timeoutMs: runtime.config.payments.timeoutMs,
    idempotencyKey: async () => (await runtime.serviceKeys()).idempotency,
    newEvent,
    commit: (changes) => commitChanges(db, compileContext(runtime, scope), changes, checkoutCardChanges),
  };
}

/** What the checkout upkeep needs: the card form's ports, the open checkouts' index, the API card attempts' settlement, the TTL. */
export function upkeepPorts(runtime: Runtime, scope: ChangeScope): UpkeepPorts {
  return {
    ...checkoutCardPorts(runtime, scope),
    index: dynamoOpenCheckouts(runtime.db, runtime.config.tableName),
    cardAttempts: cardSettlePorts(runtime, scope),
    ttlSeconds: runtime.config.checkout.ttlSeconds,
    nowMs: () => Date.now(),
  };
}
