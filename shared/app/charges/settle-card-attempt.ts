import type { CardAttempt } from '../../domain/card-attempt';
import { logger } from '../../logger';
import type { CardAttemptStore } from '../../ports/cards';
import { type CardAuthorizationStatus, type PaymentProvider, withProviderTimeout } from '../../providers/port';
import { applyNotification, type InvoiceMovePorts } from '../invoices/apply-notification';

export type CardSettlement = 'paid' | 'not_charged' | 'unknown';

/** What asking the provider about an attempt needs: the provider an attempt was asked of, by its name, and the time limit. */
export type CardAskPorts = { providerNamed: (name: string) => PaymentProvider; timeoutMs: number };

export type CardSettlePorts = InvoiceMovePorts & CardAskPorts & { attempts: CardAttemptStore };

/** Asks the provider about an attempt by its key; undefined when the provider does not answer either. */
export async function askProvider(ports: CardAskPorts, attempt: CardAttempt): Promise<CardAuthorizationStatus | undefined> {
  try {
    return await withProviderTimeout(ports.providerNamed(attempt.provider).cardAuthorizationStatus(attempt.providerKey), ports.timeoutMs);
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
export async function settleCardAttempt(ports: CardSettlePorts, attempt: CardAttempt, now: Date, known?: CardAuthorizationStatus): Promise<CardSettlement> {
  const status = known ?? (await askProvider(ports, attempt));
  if (!status) return 'unknown';
  // A request the provider has not seen may still reach it within its own time limit: not_found proves nothing until that has passed.
  const graceMs = 2 * ports.timeoutMs;
  if (status.outcome === 'not_found' && attempt.unknownAt !== undefined && now.getTime() - Date.parse(attempt.unknownAt) < graceMs) return 'unknown';
  const target = { reference: attempt.reference };
  if (status.outcome === 'approved') {
    // The transaction first, so the invoice.paid event carries it.
    await ports.attempts.recordTransaction(attempt.reference, { transactionId: status.transactionId, status: status.status });
    await applyNotification(ports, { id: `card-attempt:${attempt.key}`, kind: 'paid', target, occurredAt: now }, now);
    await ports.attempts.closeUnknown(attempt, 'RECORDED', now);
    logger.info('card attempt settled: charged, invoice PAID', { reference: attempt.reference });
    return 'paid';
  }
  await applyNotification(ports, { id: `card-attempt:${attempt.key}`, kind: 'canceled', target, occurredAt: now }, now);
  await ports.attempts.closeUnknown(attempt, 'NOT_CHARGED', now);
  logger.info('card attempt settled: not charged, invoice CANCELED', { reference: attempt.reference, outcome: status.outcome });
  return 'not_charged';
}
