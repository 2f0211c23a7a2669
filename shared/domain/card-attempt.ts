import { declineLock } from './card-declines';

/** OPEN: asked, no answer recorded yet. UNKNOWN: the answer was lost, the invoice waits PENDING. RECORDED: the invoice is PAID. */
export type CardAttemptStatus = 'OPEN' | 'UNKNOWN' | 'RECORDED';

/**
 * An attempt of POST /api/creditcard/create (issue 25), recorded before the provider is asked under a
 * key of the charge itself, with a provider idempotency key drawn once: a retry of the same charge
 * asks the provider again under it and never authorizes twice.
 */
export type CardAttempt = {
  key: string;
  accountId: string;
  providerKey: string;
  reference: string;
  invoiceId: number;
  status: CardAttemptStatus;
  /** The provider it was asked of (the invoice's `provider`). */
  provider: string;
  /** When its answer was lost (UNKNOWN). */
  unknownAt?: string;
};

/** Whose declines a card attempt counts against: the card (its fingerprint) and the merchant. */
export type DeclineScope = { fingerprint: string; accountId: string };

/** The card's and the merchant's decline logs as stored (validated when read by declineLock and withDecline). */
export type DeclineLogs = { card: unknown; merchant: unknown };

export type DeclineLimits = { perCardPerHour: number; perMerchantPerHour: number };

/** Why an attempt is refused before the provider is asked, and until when. */
export type DeclineLockState = { locked: false } | { locked: true; by: 'card' | 'merchant'; retryAfterSeconds: number };

/** Whether the logs lock an attempt now (the card's cap first). */
export function declineLockOf(logs: DeclineLogs, limits: DeclineLimits, nowMs: number): DeclineLockState {
  const card = declineLock(logs.card, limits.perCardPerHour, nowMs);
  if (card.locked) return { locked: true, by: 'card', retryAfterSeconds: card.retryAfterSeconds };
  const merchant = declineLock(logs.merchant, limits.perMerchantPerHour, nowMs);
  if (merchant.locked) return { locked: true, by: 'merchant', retryAfterSeconds: merchant.retryAfterSeconds };
  return { locked: false };
}
