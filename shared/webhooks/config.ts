import { randomBytes } from 'node:crypto';
import { seal, unseal } from '../crypto/personal-data';
import type { Item } from '../adapters/dynamo/dynamo';

/** The event types this service sends (spec 6.1; order events come from the hosted checkout). */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.paid',
  'invoice.canceled',
  'invoice.refunded',
  'order.paid',
  'order.canceled',
  'order.refunded',
  'pixout.paid',
  'pixout.canceled',
  'ping',
] as const;

export const SECRET_NOTICE_NEW = 'Store this secret now: it is shown only once. Verify every webhook with it (Service-Signature header).';
export const SECRET_NOTICE_KEPT = 'The signing secret is unchanged; POST /api/webhook/secret/rotate issues a new one.';

/** whsec_ and 32 random bytes (base64url). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

const context = (accountId: string) => `webhook-secret:${accountId}`;

/** Webhook secrets are stored sealed (AES-256-GCM, key derived from the master key in Secrets Manager). */
export function sealWebhookSecret(secret: string, accountId: string, key: Buffer): string {
  return seal(secret, key, context(accountId));
}

/** The account's webhook URL and signing secret, if configured. */
export function webhookOf(account: Item | undefined, key: Buffer): { url: string; secret: string } | undefined {
  if (!account || typeof account.webhookUrl !== 'string' || typeof account.webhookSecretSealed !== 'string') return undefined;
  return { url: account.webhookUrl, secret: unseal(account.webhookSecretSealed, key, context(String(account.accountId))) };
}
