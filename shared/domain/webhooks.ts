/**
 * Webhooks as the rules see them: the event types sent (spec 6.1; order events come from the hosted
 * checkout), what a merchant is told about the signing secret, and the delivery record with its view.
 */
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

/** An account's webhook as the merchant may see it: the URL, and whether a secret exists (never the secret). */
export type WebhookSettings = { url: string | undefined; secretConfigured: boolean };

/** Where an account's events go, with the secret that signs them (in memory only: stored sealed). */
export type WebhookEndpoint = { url: string; secret: string };

/** An event to deliver: its account, type and the exact JSON body signed at every attempt. */
export type StoredEvent = { eventId: string; accountId: string; eventType: string; body: string };

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** An event's delivery to its account's webhook: the attempts made, the last answer, the next attempt. */
export type WebhookDelivery = {
  eventId: string;
  accountId: string;
  eventType: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  /** The running attempt's lease (ISO time); absent between attempts. */
  claimUntil?: string;
  /** Which attempt series this is: 1, then one more each time the operator redelivers the event. */
  series: number;
  createdAt: string;
  updatedAt: string;
};

/** A recorded attempt: what the sender writes once its POST is answered (or failed); `updatedAt` is when. */
export type DeliveryAttemptRecord = Omit<WebhookDelivery, 'claimUntil' | 'createdAt' | 'series'>;

/** One delivery as GET /api/webhook/deliveries shows it. */
export function deliveryView(delivery: WebhookDelivery) {
  return {
    event_id: delivery.eventId,
    type: delivery.eventType,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt,
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
  };
}
