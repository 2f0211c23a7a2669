import type { LoggedEvent } from '../domain/events-log';
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
  claimAttempt(
    eventId: string,
    previousAttempts: number,
    now: Date,
    until: Date,
  ): Promise<{ claimed: true } | { claimed: false; current: WebhookDelivery | undefined }>;
  /** Records an attempt under its claim; false when the lease was lost to another attempt (its record stands). */
  recordAttempt(record: DeliveryAttemptRecord, claim: { until: string; previousAttempts: number }): Promise<boolean>;
}

/** One page of the events API's list: the account's events in a time range, newest first, of one type if asked. */
export type EventLogQuery = { accountId: string; fromIso: string; toIso: string; type?: string };

/** The events recorded for the accounts (shared/adapters/dynamo/event-log.ts): the events API (issue 29). */
export interface EventLog {
  /** The account's events of the query, newest first, each passing `keep`, paged: the `page`-th `pageSize` kept (at most `maxScanned` read). */
  list<T>(
    query: EventLogQuery,
    page: { page: number; pageSize: number; maxScanned: number },
    keep: (event: LoggedEvent, delivery: WebhookDelivery | undefined) => T | undefined,
  ): Promise<T[]>;
  /** One event by id (any account's: the caller checks whose), or undefined. */
  get(eventId: string): Promise<LoggedEvent | undefined>;
}
