import type { NewInvoice } from './invoice';

export type { DeclineLimits, DeclineScope } from './card-declines';

/**
 * OPEN: asked, no answer recorded yet (in the settler's index from its opening: an invocation that ends
 * without recording it, killed mid-call, leaves it for the settler). UNKNOWN: the answer was lost, the invoice waits PENDING. RECORDED: the invoice is PAID. */
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
  /** When it was opened (the settler asks about an OPEN attempt once its invocation is surely over). */
  openedAt?: string;
  /**
   * The PENDING invoice its charge records when its answer is lost (no card number, no CVV: the card's
   * summary only): the settler records it for an OPEN attempt whose invocation ended without an answer.
   */
  pending?: NewInvoice;
};
