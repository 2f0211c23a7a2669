import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { applyNotification } from '../app/invoices/apply-notification';
import { invoiceMovePorts } from '../wiring/invoices';
import { logger } from '../logger';
import { type CardAuthorizationStatus, withProviderTimeout } from '../providers/port';
import { paymentProvider } from '../providers/registry';
import type { Runtime } from '../runtime';
import { keys } from '../adapters/dynamo/keys';
import { type CardAttempt, closeUnknownAttempt } from '../adapters/dynamo/card-attempts';

export type CardSettlement = 'paid' | 'not_charged' | 'unknown';

/** Asks the provider about an attempt by its key; undefined when the provider does not answer either. */
export async function askProvider(runtime: Runtime, attempt: CardAttempt): Promise<CardAuthorizationStatus | undefined> {
  try {
    return await withProviderTimeout(paymentProvider(runtime.config, attempt.provider).cardAuthorizationStatus(attempt.providerKey), runtime.config.payments.timeoutMs);
  } catch (err) {
    logger.warn('card attempt: the provider could not be asked', { reference: attempt.reference, error: err instanceof Error ? err.message : 'unknown' });
    return undefined;
  }
}

/**
 * Settles an UNKNOWN card attempt with what the provider holds under its key: approved → its PENDING
 * invoice moves to PAID (the balance credited once, invoice.paid: the same move a payment
 * notification makes) and records the transaction; declined or never received → CANCELED
 * (invoice.canceled: nothing was charged; never received counts only once 2 × PROVIDER_TIMEOUT_MS have
 * passed since the answer was lost: the request may still arrive); no answer → it stays UNKNOWN for
 * the next run or retry.
 * Idempotent: a move already made (a concurrent retry or settler) changes nothing.
 */
export async function settleCardAttempt(runtime: Runtime, attempt: CardAttempt, now: Date, known?: CardAuthorizationStatus): Promise<CardSettlement> {
  const status = known ?? (await askProvider(runtime, attempt));
  if (!status) return 'unknown';
  // A request the provider has not seen may still reach it within its own time limit: not_found proves nothing until that has passed.
  const graceMs = 2 * runtime.config.payments.timeoutMs;
  if (status.outcome === 'not_found' && attempt.unknownAt !== undefined && now.getTime() - Date.parse(attempt.unknownAt) < graceMs) return 'unknown';
  const target = { reference: attempt.reference };
  if (status.outcome === 'approved') {
    // The transaction first, so the invoice.paid event carries it.
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: keys.invoice(attempt.reference),
        UpdateExpression: 'SET #card.transactionId = if_not_exists(#card.transactionId, :id), #card.transactionStatus = if_not_exists(#card.transactionStatus, :status)',
        ConditionExpression: 'attribute_exists(#card)',
        ExpressionAttributeNames: { '#card': 'card' },
        ExpressionAttributeValues: { ':id': status.transactionId, ':status': status.status },
      }),
    );
    await applyNotification(invoiceMovePorts(runtime), { id: `card-attempt:${attempt.key}`, kind: 'paid', target, occurredAt: now }, now);
    await closeUnknownAttempt(runtime, attempt, 'RECORDED', now);
    logger.info('card attempt settled: charged, invoice PAID', { reference: attempt.reference });
    return 'paid';
  }
  await applyNotification(invoiceMovePorts(runtime), { id: `card-attempt:${attempt.key}`, kind: 'canceled', target, occurredAt: now }, now);
  await closeUnknownAttempt(runtime, attempt, 'NOT_CHARGED', now);
  logger.info('card attempt settled: not charged, invoice CANCELED', { reference: attempt.reference, outcome: status.outcome });
  return 'not_charged';
}
