import { randomBytes } from 'node:crypto';
import { seal, unseal } from './crypto/personal-data';

/** whsec_ and 32 random bytes (base64url). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

const context = (accountId: string) => `webhook-secret:${accountId}`;

/** Webhook secrets are stored sealed (AES-256-GCM, key derived from the master key in Secrets Manager). */
export function sealWebhookSecret(secret: string, accountId: string, key: Buffer): string {
  return seal(secret, key, context(accountId));
}

/** A sealed webhook secret opened (only to sign a delivery). */
export function unsealWebhookSecret(sealed: string, accountId: string, key: Buffer): string {
  return unseal(sealed, key, context(accountId));
}
