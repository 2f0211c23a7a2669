import type { SlotScope } from './attempt-slots';

/**
 * Card testing caps (issue 31): someone who knows a merchant's public key could use its hosted checkout
 * (or someone with its API keys the card route) as an oracle, trying card after card. Declined attempts
 * are counted per checkout (for its whole life), per card (a keyed fingerprint of the number: never the
 * number) and per merchant, the last two over a sliding hour, across addresses. At a cap the next
 * attempt is refused without asking the provider; Pix is never affected.
 *
 * Issue 43: the caps hold under a burst. Each attempt TAKES a slot in its logs (shared/domain/attempt-slots.ts)
 * in one conditional write before the provider is asked; a decline (or a lost answer) keeps it, an
 * approval (or an answer that verifiably charged nothing) gives it back. So a log counts declines,
 * lost answers and the attempts in flight, and N concurrent attempts are admitted at most up to the cap.
 * The card's fingerprint is keyed in shared/domain/card-fingerprint.ts.
 */

/** The log line each declined card attempt writes, with its `accountId` (the per-merchant alarm's Contributor Insights rule counts them). */
export const CARD_DECLINED_MESSAGE = 'card declined';

/** The window of the per-card and per-merchant caps. */
export const DECLINE_WINDOW_MS = 60 * 60 * 1000;

/** How long a checkout's log is kept after its last attempt (its window is the checkout's whole life; checkouts are abandoned within a day). */
export const CHECKOUT_LOG_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** Whose attempts a card attempt counts against: the card (its fingerprint) and the merchant. */
export type DeclineScope = { fingerprint: string; accountId: string };

export type DeclineLimits = { perCardPerHour: number; perMerchantPerHour: number };

/** The slot logs a card attempt takes before the provider is asked: the card's, the merchant's, and a hosted checkout's (its cap). */
export function cardAttemptScopes(scope: DeclineScope, limits: DeclineLimits, checkout?: { reference: string; perCheckout: number }): SlotScope[] {
  const hour = { kind: 'sliding', ms: DECLINE_WINDOW_MS } as const;
  return [
    { log: { kind: 'card', id: scope.fingerprint }, limit: limits.perCardPerHour, window: hour },
    { log: { kind: 'merchant', id: scope.accountId }, limit: limits.perMerchantPerHour, window: hour },
    ...(checkout
      ? [
          {
            log: { kind: 'checkout', id: checkout.reference },
            limit: checkout.perCheckout,
            window: { kind: 'lifetime', keepMs: CHECKOUT_LOG_KEEP_MS },
          } as const,
        ]
      : []),
  ];
}

/** Whether a checkout's card form is shown locked: it took its `perCheckout` declines (the page's and the post's first look; the slot take decides). */
export function checkoutCardLocked(declines: unknown, perCheckout: number): boolean {
  return Number(declines ?? 0) >= perCheckout;
}
