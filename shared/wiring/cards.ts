import { cardAttemptCompilers, dynamoCardAttempts } from '../adapters/dynamo/card-attempts';
import { dynamoAttemptSlots } from '../adapters/dynamo/attempt-slots';
import { cleanupTimeLeftMs } from '../adapters/dynamo/deadline';
import { type ChangeCompilers, commitChanges, eventCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { dynamoInvoiceIds, dynamoInvoices, invoiceCreatedCompilers } from '../adapters/dynamo/invoices';
import { ledgerCompilers } from '../adapters/dynamo/ledger';
import type { CardChargePorts } from '../app/charges/create-card-charge';
import type { CardSettlePorts } from '../app/charges/settle-card-attempt';
import type { VoidPorts } from '../app/charges/void-unless-recorded';
import type { AttemptSlots } from '../ports/attempt-slots';
import { paymentProvider } from './adapter-registry';
import type { ChangeScope } from '../domain/changes';
import type { Runtime } from './runtime';
import { compileContext } from './compile';
import { invoiceMovePorts } from './invoice-moves';

/** The changes of a card charge: its invoice, the credit, invoice.paid, the attempt's move. */
export const cardChargeChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(
  invoiceCreatedCompilers,
  ledgerCompilers,
  eventCompilers,
  cardAttemptCompilers,
);

/** What settling a card attempt needs: the invoice moves, the attempts, each attempt's provider by name, the time limit. */
export function cardSettlePorts(runtime: Runtime, scope: ChangeScope): CardSettlePorts {
  return {
    ...invoiceMovePorts(runtime, scope),
    attempts: dynamoCardAttempts(runtime.db, runtime.config.tableName),
    providerNamed: (name) => paymentProvider(runtime.config, name),
    timeoutMs: runtime.config.payments.timeoutMs,
    commit: (changes) => commitChanges(runtime.db, compileContext(runtime, scope), changes, cardChargeChanges),
  };
}

/** What a card charge of the API needs, over the runtime's table and its configured card provider. */
export function cardChargePorts(runtime: Runtime, scope: ChangeScope): CardChargePorts {
  return {
    ...cardSettlePorts(runtime, scope),
    ids: dynamoInvoiceIds(runtime.db, runtime.config.tableName),
    slots: attemptSlots(runtime),
    declineLimits: runtime.config.cardDeclines,
    provider: paymentProvider(runtime.config),
    idempotencyKey: async () => (await runtime.serviceKeys()).idempotency,
    cleanupLeftMs: cleanupTimeLeftMs,
  };
}

/** The attempt slots over the runtime's table (the card-testing caps' logs, issue 43). */
export function attemptSlots(runtime: Runtime): AttemptSlots {
  return dynamoAttemptSlots(runtime.db, runtime.config.tableName);
}

/** What voiding an unrecorded authorization needs: the invoices and the provider that authorized it (by name; the configured one by default). */
export function voidPorts(runtime: Runtime, providerName?: string): VoidPorts {
  return {
    invoices: dynamoInvoices(runtime.db, runtime.config.tableName),
    provider: paymentProvider(runtime.config, providerName),
    timeoutMs: runtime.config.payments.timeoutMs,
    cleanupLeftMs: cleanupTimeLeftMs,
  };
}
