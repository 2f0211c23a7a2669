import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { PAYMENT_METHODS, type PaymentMethod, paymentMethodOf } from '../domain/payment-methods';
import { logger } from './logger';

/**
 * THE metrics module. Business metrics in CloudWatch embedded metric format (EMF): a JSON line in the
 * function's log becomes a metric without an API call
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html),
 * printed by Powertools Metrics (@aws-lambda-powertools/metrics). Every metric carries the `service`
 * dimension (Powertools' default dimension); a few add one more low-cardinality dimension (`method`,
 * each count its own line: Powertools' single metric). Never an account, a reference or anything a
 * caller chose. What this module adds to Powertools: an API request's counts held until its answer is
 * committed, and the stored counts summed per metric until the invocation's flush.
 */
export const METRICS_NAMESPACE = 'PaymentGateway';
/** The `service` dimension of every business metric (the stack's POWERTOOLS_SERVICE_NAME; alarms and widgets name it). */
export const METRICS_SERVICE = 'payment-gateway';

export const BUSINESS_METRICS = {
  chargesCreated: 'ChargesCreated',
  paymentsConfirmed: 'PaymentsConfirmed',
  cardDeclines: 'CardDeclines',
  withdrawalsCreated: 'WithdrawalsCreated',
  withdrawalsPaid: 'WithdrawalsPaid',
  withdrawalsCanceled: 'WithdrawalsCanceled',
  webhookAttempts: 'WebhookAttempts',
  webhookSuccesses: 'WebhookSuccesses',
  webhookFailures: 'WebhookFailures',
  /** A 2xx that took WEBHOOK_SLOW_ANSWER_MS or more: one hiccup from a timeout (the failure-rate alarm counts it with the failures). */
  webhookSlowAnswers: 'WebhookSlowAnswers',
  idempotentReplays: 'IdempotentReplays',
  conflicts: 'Conflicts',
  rateLimited: 'RateLimited',
  unavailable: 'Unavailable',
  /** A Pix the PSP received whose amount is not the invoice total, or a partial refund: never credited, alarmed. */
  pixAnomalies: 'PixAnomalies',
  /** A panel message not delivered (issue 44): its recipient suppressed, or SES refused it for good (the log line says which). */
  mailNotDelivered: 'MailNotDelivered',
  /** Hard bounces and complaints SES reported of the panel's mail (each suppresses its recipients); soft bounces are only logged. */
  mailHardBounces: 'MailHardBounces',
  mailComplaints: 'MailComplaints',
} as const;
export type BusinessMetric = (typeof BUSINESS_METRICS)[keyof typeof BUSINESS_METRICS];

/** The payment methods (the account's), the one extra dimension (`method`) of ChargesCreated and PaymentsConfirmed. */
export { PAYMENT_METHODS, type PaymentMethod };
/** Metrics published per payment method (dimensions service + method), all others with service alone. */
export const PER_METHOD_METRICS: readonly BusinessMetric[] = [BUSINESS_METRICS.chargesCreated, BUSINESS_METRICS.paymentsConfirmed];

/** One count to publish. */
export type MetricCount = { name: BusinessMetric; method?: PaymentMethod; value?: number };

/** The invoice's stored method as a metric's `method` (the registry's setting name). */
export { paymentMethodOf };

/** API routes whose committed, first-time (not replayed) success is a business event, by route id. */
const ON_SUCCESS: Readonly<Record<string, readonly MetricCount[]>> = {
  CreatePixCharge: [{ name: BUSINESS_METRICS.chargesCreated, method: 'pix' }],
  CreateBoletoCharge: [{ name: BUSINESS_METRICS.chargesCreated, method: 'boleto' }],
  // A card charge is authorized and paid in the creation's transaction.
  CreateCardCharge: [
    { name: BUSINESS_METRICS.chargesCreated, method: 'card' },
    { name: BUSINESS_METRICS.paymentsConfirmed, method: 'card' },
  ],
  CreateWithdraw: [{ name: BUSINESS_METRICS.withdrawalsCreated }],
};
/** Route ids ON_SUCCESS names (a test checks each is a route of the table). */
export const METERED_ROUTE_IDS: readonly string[] = Object.keys(ON_SUCCESS);

const BY_STATUS: Readonly<Record<number, BusinessMetric>> = {
  409: BUSINESS_METRICS.conflicts,
  429: BUSINESS_METRICS.rateLimited,
  503: BUSINESS_METRICS.unavailable,
};

/** The counts one API answer stands for: its route's business event, a replay, a 409, 429 or 503, a declined card. */
export function requestMetrics(answer: { routeId: string; status: number; replayed: boolean; errorCode?: string }): MetricCount[] {
  const counts: MetricCount[] = [];
  if (answer.replayed) counts.push({ name: BUSINESS_METRICS.idempotentReplays });
  else if (answer.status >= 200 && answer.status < 300) counts.push(...(ON_SUCCESS[answer.routeId] ?? []));
  const byStatus = BY_STATUS[answer.status];
  if (byStatus) counts.push({ name: byStatus });
  if (answer.errorCode === 'card_declined' && !answer.replayed) counts.push({ name: BUSINESS_METRICS.cardDeclines });
  return counts;
}

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

/** Counts recorded during an API request, published only once its answer is committed. */
let held: MetricCount[] | undefined;

/** Counts stored for the invocation's flush (the service dimension alone), summed per metric (one value each on the line). */
const stored = new Map<BusinessMetric, number>();

/**
 * One EMF line written directly, for a metric Powertools would not print as its alarm reads it
 * (LedgerDifferences of the daily reconciliation, without any dimension: Powertools always adds the
 * service dimension).
 */
export function emfLine(name: string, value: number, unit: 'Count' | 'None', at: Date, dimensions: Record<string, string> = {}): string {
  return JSON.stringify({
    _aws: {
      Timestamp: at.getTime(),
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [Object.keys(dimensions)], Metrics: [{ Name: name, Unit: unit }] }],
    },
    ...dimensions,
    [name]: value,
  });
}

function publish(count: MetricCount): void {
  const value = count.value ?? 1;
  if (!(value > 0)) return;
  try {
    if (count.method) {
      // Its own line (its own dimension set): the stored metrics share the service dimension alone.
      metrics.singleMetric().addDimension('method', count.method).addMetric(count.name, MetricUnit.Count, value);
    } else {
      stored.set(count.name, (stored.get(count.name) ?? 0) + value);
    }
  } catch (err) {
    logger.warn('metric not recorded', { metric: count.name, error: err instanceof Error ? err.message : 'unknown' });
  }
}

/**
 * Counts a business event that has happened (call it after the transaction that made it committed).
 * Inside an API request the count is held until the request's answer is committed (observe.ts
 * releases it, or drops it when the request fails: a rolled-back change is never counted). Never throws.
 */
export function countMetric(name: BusinessMetric, options: { method?: PaymentMethod; value?: number } = {}): void {
  const count: MetricCount = { name, ...options };
  if (held) held.push(count);
  else publish(count);
}

/** An API request starts: its counts are held (shared/http/middleware/observe.ts). */
export function holdMetrics(): void {
  held = [];
}

/** The request ended: publish its held counts if its answer was committed, else drop them. */
export function releaseHeldMetrics(committed: boolean): void {
  const counts = held ?? [];
  held = undefined;
  if (committed) counts.forEach(publish);
}

/** Publishes the stored counts (one EMF line: Powertools' publishStoredMetrics); call at the end of every invocation. Never throws. */
export function flushMetrics(): void {
  try {
    if (stored.size === 0) return;
    const counts = [...stored.entries()];
    stored.clear();
    for (const [name, value] of counts) metrics.addMetric(name, MetricUnit.Count, value);
    metrics.publishStoredMetrics();
  } catch (err) {
    logger.warn('metrics not published', { error: err instanceof Error ? err.message : 'unknown' });
  }
}
