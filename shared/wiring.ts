import { changeWrites, type CompileContext, commitMove } from './adapters/dynamo/changes';
import { dynamoBalance, dynamoWithdrawals } from './adapters/dynamo/withdrawals';
import { dynamoWebhooks } from './adapters/dynamo/webhooks';
import { dynamoCustomers } from './adapters/dynamo/customers';
import { dynamoInvoiceIds } from './adapters/dynamo/invoices';
import type { PixChargePorts } from './app/charges/create-pix-charge';
import { paymentProvider, pixProvider } from './providers/registry';
import type { BoletoChargePorts } from './app/charges/create-boleto-charge';
import type { CustomerStore } from './ports/customers';
import type { WebhookStore } from './ports/webhooks';
import type { TxWrite } from './adapters/dynamo/transact';
import type { Change } from './domain/changes';
import { newEvent } from './events/outbox';
import type { BalancePort, WithdrawalStore } from './ports/withdrawals';
import type { Runtime } from './runtime';

/**
 * The composition root (issue 32): the ports a use case reads and writes through, built from the runtime
 * over the adapters (the one DynamoDB table today). Functions and the HTTP pipeline take their ports
 * here; app/ never imports an adapter.
 */

/** The runtime's table and personal-data key, for compiling changes. */
export function compileContext(runtime: Runtime): CompileContext {
  return { table: runtime.config.tableName, keys: () => runtime.serviceKeys() };
}

/** A route's changes as the writes of its one transaction (the pipeline adds the idempotency record). */
export function compileChanges(runtime: Runtime, changes: readonly Change[]): Promise<TxWrite[]> {
  return changeWrites(compileContext(runtime), changes);
}

/** The withdrawal ports over the runtime's table. */
export function withdrawalPorts(runtime: Runtime): {
  withdrawals: WithdrawalStore;
  balance: BalancePort;
  newEvent: typeof newEvent;
  /** Commits a state move's changes in one transaction; false when the move was already made (nothing written). */
  commitMove: (changes: readonly Change[]) => Promise<boolean>;
} {
  return {
    withdrawals: dynamoWithdrawals(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).personalData),
    balance: dynamoBalance(runtime.db, runtime.config.tableName),
    newEvent,
    commitMove: (changes) => commitMove(runtime.db, compileContext(runtime), changes),
  };
}

/** The webhook store over the runtime's table. */
export function webhookPorts(runtime: Runtime): { webhooks: WebhookStore; newEvent: typeof newEvent } {
  return { webhooks: dynamoWebhooks(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).webhookSecrets), newEvent };
}

/** The customer store over the runtime's table. */
export function customerPorts(runtime: Runtime): { customers: CustomerStore } {
  return { customers: dynamoCustomers(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).personalData) };
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
