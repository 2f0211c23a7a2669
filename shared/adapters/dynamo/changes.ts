import type { Change } from '../../domain/changes';
import { outboxWrite } from '../../events/outbox';
import type { Db } from './dynamo';
import { transferWrites } from './ledger';
import { MoveAlreadyMade } from './state-move';
import { commitWrites, type TxWrite } from './transact';
import { customerCreatedWrites } from './customers';
import { invoiceCreatedWrites } from './invoices';
import { webhookConfiguredWrite, webhookSecretRotatedWrite } from './webhooks';
import { withdrawalCreatedWrite, withdrawalMovedWrite } from './withdrawals';

/** What compiling needs besides the changes: the table, and the keys that seal personal data and webhook secrets. */
export type CompileContext = { table: string; keys: () => Promise<{ personalData: Buffer; webhookSecrets: Buffer }> };

/** One change as the writes of the caller's transaction. */
async function writesOf(context: CompileContext, change: Change): Promise<TxWrite[]> {
  switch (change.kind) {
    case 'ledger.transfer':
      return transferWrites(context.table, change);
    case 'withdrawal.created':
      return [withdrawalCreatedWrite(context.table, change, (await context.keys()).personalData)];
    case 'withdrawal.moved':
      return [withdrawalMovedWrite(context.table, change)];
    case 'event.recorded':
      return [outboxWrite(context.table, change.accountId, change.event)];
    case 'webhook.configured':
      return [webhookConfiguredWrite(context.table, change, (await context.keys()).webhookSecrets)];
    case 'webhook.secret_rotated':
      return [webhookSecretRotatedWrite(context.table, change, (await context.keys()).webhookSecrets)];
    case 'customer.created':
      return customerCreatedWrites(context.table, change, (await context.keys()).personalData);
    case 'invoice.created':
      return invoiceCreatedWrites(context.table, change, (await context.keys()).personalData);
  }
}

/** A use case's changes as ONE transaction's writes, in their order (a state move's conditional update first when it comes first). */
export async function changeWrites(context: CompileContext, changes: readonly Change[]): Promise<TxWrite[]> {
  return (await Promise.all(changes.map((change) => writesOf(context, change)))).flat();
}

/**
 * Commits the changes of a state move (a bank outcome) in one transaction. Returns false when the move's
 * from-status no longer held (a duplicate or concurrent outcome made it first): then nothing was written.
 */
export async function commitMove(db: Db, context: CompileContext, changes: readonly Change[]): Promise<boolean> {
  try {
    await commitWrites(db, await changeWrites(context, changes));
    return true;
  } catch (err) {
    if (err instanceof MoveAlreadyMade) return false;
    throw err;
  }
}
