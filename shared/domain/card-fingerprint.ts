import { createHmac } from 'node:crypto';

export { CARD_DECLINED_MESSAGE, cardAttemptScopes, checkoutCardLocked, DECLINE_WINDOW_MS } from './card-declines';

/** The key a card's declines are counted under: a keyed hash of its number (never the number), the same for every merchant. */
export function cardFingerprint(cardNumber: string, key: Buffer): string {
  return createHmac('sha256', key)
    .update(`card-fingerprint:${cardNumber.replace(/\D/g, '')}`)
    .digest('base64url')
    .slice(0, 32);
}
