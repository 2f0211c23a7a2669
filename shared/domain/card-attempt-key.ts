import { createHmac } from 'node:crypto';
import { canonicalJson } from './request-fingerprint';

/**
 * The key an attempt is kept under: the caller's Idempotency-Key when given, else a keyed hash of what
 * makes the charge this charge (never the card number in clear). Without a key, the same card, amounts,
 * installments, invoice_no and item within CARD_ATTEMPT_TTL_SECONDS is the same charge (docs/decisions.md).
 */
export function cardAttemptKey(
  accountId: string,
  idempotencyKey: string | undefined,
  charge: { cardNumber: string; month: number; year: number; totalCents: number; installments: number; invoiceNo: string; itemName: string },
  secret: Buffer,
): string {
  const source =
    idempotencyKey !== undefined
      ? `key:${accountId}:${idempotencyKey}`
      : `charge:${accountId}:${canonicalJson({ ...charge, cardNumber: charge.cardNumber.replace(/\D/g, '') })}`;
  return createHmac('sha256', secret).update(`card-attempt:${source}`).digest('base64url').slice(0, 43);
}
