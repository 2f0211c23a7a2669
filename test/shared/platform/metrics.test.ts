import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeList } from '../../../shared/http/routes';
import {
  BUSINESS_METRICS,
  countMetric,
  flushMetrics,
  holdMetrics,
  METERED_ROUTE_IDS,
  paymentMethodOf,
  releaseHeldMetrics,
  requestMetrics,
} from '../../../shared/platform/metrics';

type Emf = { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } } & Record<
  string,
  unknown
>;

/** The EMF lines this process prints from now on, parsed. */
function captureEmf(): { lines: () => Emf[]; stop: () => void } {
  const chunks: string[] = [];
  const original = process.stdout.write;
  process.stdout.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
    const [chunk] = args;
    chunks.push(typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '');
    return (original as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof process.stdout.write;
  return {
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{"_aws"'))
        .map((line) => JSON.parse(line) as Emf),
    stop: () => {
      process.stdout.write = original;
    },
  };
}

/** Metric name → summed value over the captured lines, with each line's dimension names. */
const totals = (lines: Emf[]) => {
  const out: Record<string, { value: number; dimensions: string[][] }> = {};
  for (const line of lines) {
    const [directive] = line._aws.CloudWatchMetrics;
    for (const { Name } of directive?.Metrics ?? []) {
      const key = typeof line.method === 'string' ? `${Name}/${line.method}` : Name;
      const entry = (out[key] ??= { value: 0, dimensions: directive?.Dimensions ?? [] });
      const value = line[Name];
      // Powertools stores repeated counts of one metric as a list of values (CloudWatch sums them).
      entry.value += Array.isArray(value) ? value.reduce((sum: number, v) => sum + Number(v), 0) : Number(value);
    }
  }
  return out;
};

let emf: ReturnType<typeof captureEmf>;
beforeEach(() => {
  flushMetrics();
  releaseHeldMetrics(false);
  emf = captureEmf();
});
afterEach(() => emf.stop());

describe('requestMetrics: what an API answer counts', () => {
  it('counts a first-time creation per method, a card charge as confirmed too, a withdrawal', () => {
    expect(requestMetrics({ routeId: 'CreatePixCharge', status: 200, replayed: false })).toEqual([{ name: 'ChargesCreated', method: 'pix' }]);
    expect(requestMetrics({ routeId: 'CreateBoletoCharge', status: 201, replayed: false })).toEqual([{ name: 'ChargesCreated', method: 'boleto' }]);
    expect(requestMetrics({ routeId: 'CreateCardCharge', status: 200, replayed: false })).toEqual([
      { name: 'ChargesCreated', method: 'card' },
      { name: 'PaymentsConfirmed', method: 'card' },
    ]);
    expect(requestMetrics({ routeId: 'CreateWithdraw', status: 200, replayed: false })).toEqual([{ name: 'WithdrawalsCreated' }]);
    expect(requestMetrics({ routeId: 'GetInvoice', status: 200, replayed: false })).toEqual([]);
  });

  it('counts a replay (not the creation again), 409, 429, 503 and a declined card', () => {
    expect(requestMetrics({ routeId: 'CreatePixCharge', status: 200, replayed: true })).toEqual([{ name: 'IdempotentReplays' }]);
    expect(requestMetrics({ routeId: 'CreatePixCharge', status: 409, replayed: false })).toEqual([{ name: 'Conflicts' }]);
    expect(requestMetrics({ routeId: 'GetBalance', status: 429, replayed: false })).toEqual([{ name: 'RateLimited' }]);
    expect(requestMetrics({ routeId: 'CreateWithdraw', status: 503, replayed: false })).toEqual([{ name: 'Unavailable' }]);
    expect(requestMetrics({ routeId: 'CreateCardCharge', status: 400, replayed: false, errorCode: 'card_declined' })).toEqual([{ name: 'CardDeclines' }]);
    expect(requestMetrics({ routeId: 'CreateCardCharge', status: 400, replayed: false, errorCode: 'invalid_card' })).toEqual([]);
  });

  it('names only routes of the route table', () => {
    const ids = routeList.map((r) => r.id);
    for (const id of METERED_ROUTE_IDS) expect(ids, id).toContain(id);
    expect(METERED_ROUTE_IDS).toHaveLength(4);
  });

  it('maps stored invoice methods to the metric dimension', () => {
    expect([paymentMethodOf('pix'), paymentMethodOf('boleto'), paymentMethodOf('creditcard'), paymentMethodOf('other')]).toEqual([
      'pix',
      'boleto',
      'card',
      undefined,
    ]);
  });
});

describe('publishing', () => {
  it('publishes counts in namespace PaymentGateway with the service dimension, and method only where given', () => {
    countMetric(BUSINESS_METRICS.webhookAttempts);
    countMetric(BUSINESS_METRICS.webhookAttempts);
    countMetric(BUSINESS_METRICS.webhookFailures);
    countMetric(BUSINESS_METRICS.chargesCreated, { method: 'boleto' });
    countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: 'card', value: 0 });
    flushMetrics();
    const lines = emf.lines();
    expect(lines.every((l) => l._aws.CloudWatchMetrics[0]?.Namespace === 'PaymentGateway' && l.service === 'payment-gateway')).toBe(true);
    expect(totals(lines)).toEqual({
      WebhookAttempts: { value: 2, dimensions: [['service']] },
      WebhookFailures: { value: 1, dimensions: [['service']] },
      'ChargesCreated/boleto': { value: 1, dimensions: [['service', 'method']] },
    });
  });

  it('holds an API request’s counts until its answer is committed, and drops them when it failed', () => {
    holdMetrics();
    countMetric(BUSINESS_METRICS.withdrawalsPaid);
    flushMetrics();
    expect(emf.lines()).toEqual([]);
    releaseHeldMetrics(false);
    flushMetrics();
    expect(emf.lines()).toEqual([]);
    holdMetrics();
    countMetric(BUSINESS_METRICS.withdrawalsCanceled);
    countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: 'pix' });
    releaseHeldMetrics(true);
    flushMetrics();
    expect(totals(emf.lines())).toEqual({
      WithdrawalsCanceled: { value: 1, dimensions: [['service']] },
      'PaymentsConfirmed/pix': { value: 1, dimensions: [['service', 'method']] },
    });
  });

  it('publishes through Powertools Metrics: the flush is its publishStoredMetrics, each count a value summed per metric', () => {
    const publish = vi.spyOn(Metrics.prototype, 'publishStoredMetrics');
    try {
      countMetric(BUSINESS_METRICS.webhookAttempts);
      countMetric(BUSINESS_METRICS.webhookAttempts, { value: 2 });
      flushMetrics();
      expect(publish).toHaveBeenCalledTimes(1);
      const [line] = emf.lines();
      expect(line?.WebhookAttempts).toBe(3);
      flushMetrics();
      expect(publish).toHaveBeenCalledTimes(1);
    } finally {
      publish.mockRestore();
    }
  });

  it('never throws into the caller: a flush with nothing stored prints nothing', () => {
    expect(() => flushMetrics()).not.toThrow();
    expect(emf.lines()).toEqual([]);
  });
});
