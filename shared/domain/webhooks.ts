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

/**
 * An answer this slow (half of the 10 s a POST may take, shared/adapters/webhooks/deliver.ts) is one hiccup from a
 * timeout: the sender counts it (WebhookSlowAnswers) and the failure-rate alarm counts it with the failures.
 */
export const WEBHOOK_SLOW_ANSWER_MS = 5_000;

/** Whether an attempt answered 2xx, but slowly (issue 29: the attempt's time to answer is recorded and alarmed on). */
export function isSlowAnswer(ok: boolean, durationMs: number): boolean {
  return ok && durationMs >= WEBHOOK_SLOW_ANSWER_MS;
}

export const SECRET_NOTICE_NEW = 'Store this secret now: it is shown only once. Verify every webhook with it (Service-Signature header).';
export const SECRET_NOTICE_KEPT = 'The signing secret is unchanged; POST /api/webhook/secret/rotate issues a new one.';

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An account's webhook as the merchant may see it: the URL, whether a secret exists (never the secret),
 * and the event types subscribed (undefined: every type, the default).
 */
export type WebhookSettings = { url: string | undefined; secretConfigured: boolean; events?: readonly WebhookEventType[] };

/** Where an account's events go, with the secret that signs them (in memory only: stored sealed), and the types it receives. */
export type WebhookEndpoint = { url: string; secret: string; events?: readonly WebhookEventType[] };

/**
 * Whether an endpoint receives an event type (issue 29): every type without a subscription list; with
 * one, the types listed, and always the test ping (POST /api/webhook/test checks the endpoint itself).
 */
export function subscribes(endpoint: Pick<WebhookEndpoint, 'events'>, eventType: string): boolean {
  return endpoint.events === undefined || eventType === 'ping' || (endpoint.events as readonly string[]).includes(eventType);
}

/** The event types an endpoint receives, as GET /api/webhook shows them. */
export function subscribedTypes(settings: Pick<WebhookSettings, 'events'>): readonly WebhookEventType[] {
  return settings.events ?? WEBHOOK_EVENT_TYPES;
}

/** A stored subscription list read back: the known types it names, in the registry's order (undefined: none stored, every type). */
export function eventTypesOf(stored: unknown): WebhookEventType[] | undefined {
  if (!Array.isArray(stored)) return undefined;
  return WEBHOOK_EVENT_TYPES.filter((type) => stored.includes(type));
}

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
  /** Every attempt recorded, oldest first (issue 29: the events API shows them). Absent on deliveries recorded before: empty. */
  attemptLog: DeliveryAttemptEntry[];
};

/** One recorded attempt: when it ended, the HTTP status (null: no answer), the error, and the time to answer in ms. */
export type DeliveryAttemptEntry = { at: string; httpStatus: number | null; error: string | null; durationMs: number };

/** A recorded attempt: what the sender writes once its POST is answered (or failed); `updatedAt` is when, `durationMs` how long the answer took. */
export type DeliveryAttemptRecord = Omit<WebhookDelivery, 'claimUntil' | 'createdAt' | 'series' | 'attemptLog'> & { durationMs: number };

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
