import type { DeliveryAttemptRecord, StoredEvent, WebhookDelivery, WebhookEndpoint, WebhookSettings } from '../domain/webhooks';

/** GET /api/webhook/deliveries shows this many, newest first. */
export const DELIVERIES_SHOWN = 25;

/** Webhook configuration, events and deliveries as stored (shared/adapters/dynamo/webhooks.ts). */
export interface WebhookStore {
  /** The account's webhook as the merchant may see it (never the secret). */
  settings(accountId: string): Promise<WebhookSettings>;
  /** The account's URL and signing secret (unsealed), or undefined when none is configured. */
  endpoint(accountId: string): Promise<WebhookEndpoint | undefined>;
  event(eventId: string): Promise<StoredEvent | undefined>;
  delivery(eventId: string): Promise<WebhookDelivery | undefined>;
  /** Whether the account exists (the operator's commands refuse an unknown one). */
  accountExists(accountId: string): Promise<boolean>;
  /** Every delivery of the account, newest first (all pages: the operator's view). */
  allDeliveries(accountId: string): Promise<WebhookDelivery[]>;
  /** The account's last deliveries, newest first. */
  deliveries(accountId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Claims the next attempt: holds only if no attempt was recorded since `previousAttempts` and no
   * other attempt holds the lease (or its lease ran out). Else the record that won.
   */
  claimAttempt(eventId: string, previousAttempts: number, now: Date, until: Date): Promise<{ claimed: true } | { claimed: false; current: WebhookDelivery | undefined }>;
  /** Records an attempt under its claim; false when the lease was lost to another attempt (its record stands). */
  recordAttempt(record: DeliveryAttemptRecord, claim: { until: string; previousAttempts: number }): Promise<boolean>;
}
