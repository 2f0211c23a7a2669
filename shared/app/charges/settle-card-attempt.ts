import type { CardAttempt } from '../../domain/card-attempt';
import { requestMayStillArrive } from '../../domain/time-budgets';
import type { Change } from '../../domain/changes';
import { DomainError } from '../../domain/errors';
import { logger } from '../../platform/logger';
import type { CardAttemptStore } from '../../ports/cards';
import type { CardAuthorizationStatus, PaymentProvider } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';
import { applyNotification, type InvoiceMovePorts } from '../invoices/apply-notification';

export type CardSettlement = 'paid' | 'not_charged' | 'unknown';

/** What asking the provider about an attempt needs: the provider an attempt was asked of, by its name, and the time limit. */
export type CardAskPorts = { providerNamed: (name: string) => PaymentProvider; timeoutMs: number };

export type CardSettlePorts = InvoiceMovePorts &
  CardAskPorts & {
    attempts: CardAttemptStore;
    /** Commits changes now (an OPEN attempt's PENDING invoice and its move to UNKNOWN, one transaction). */
    commit: (changes: readonly Change[]) => Promise<void>;
  };

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
  if (status.outcome === 'not_found' && attempt.unknownAt !== undefined && requestMayStillArrive(attempt.unknownAt, now, ports.timeoutMs)) return 'unknown';
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

/**
 * Settles an OPEN attempt whose invocation is over without recording it (issue 44: killed mid-call, or
 * its commit and compensation both cut off): the settler found it in its index once older than
 * openCardAttemptStaleAfterMs. Asked under its key, never authorized again: declined, or never received
 * (the request can no longer arrive) → the attempt is dropped, nothing was charged and nothing recorded;
 * approved, or the provider cannot be asked → recorded as a lost answer is (its PENDING invoice and the
 * attempt UNKNOWN, one transaction, conditional on the attempt still OPEN under its key), then settled
 * as an UNKNOWN attempt: PAID with its credit and invoice.paid, or left for the next run.
 */
export async function settleOpenCardAttempt(ports: CardSettlePorts, attempt: CardAttempt, now: Date): Promise<CardSettlement> {
  const status = await askProvider(ports, attempt);
  if (status && status.outcome !== 'approved') {
    await ports.attempts.drop(attempt);
    logger.info('open card attempt settled: not charged, dropped', { reference: attempt.reference, outcome: status.outcome });
    return 'not_charged';
  }
  if (!attempt.pending) {
    // An attempt opened before its PENDING invoice was kept on it: nothing to record it with; it waits for a retry.
    logger.error('open card attempt without its pending invoice: left for a retry', { reference: attempt.reference });
    return 'unknown';
  }
  const at = now.toISOString();
  try {
    await ports.commit([
      { kind: 'invoice.created', invoice: attempt.pending },
      { kind: 'card_attempt.unknown', attempt, at },
    ]);
  } catch (err) {
    // A retry of the same charge recorded or moved it meanwhile: it settles it.
    if (err instanceof DomainError) return 'unknown';
    throw err;
  }
  logger.warn('open card attempt of an invocation that ended unanswered: recorded UNKNOWN, its invoice PENDING', { reference: attempt.reference });
  const unknown: CardAttempt = { ...attempt, status: 'UNKNOWN', unknownAt: at };
  return status ? settleCardAttempt(ports, unknown, now, status) : 'unknown';
}
