import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/platform/metrics';
import type { ApiFunction } from './api-function';
import { PAYMENT_METHODS, BUSINESS_METRICS, type BusinessMetric, PER_METHOD_METRICS } from '../../shared/platform/metrics';
import { api5xxRate, businessMetric } from './alarms';

/** What the dashboard shows: the API, its functions by group, the table, the queues and the stream consumers. */
export type DashboardSources = {
  api: apigw.IHttpApi;
  /** Route functions by route id (one function per route: a function's Duration p99 is its route's latency), and the fallback. */
  routeFunctions: ReadonlyMap<string, ApiFunction>;
  /** Queue workers, stream consumers and scheduled workers, by id. */
  workerFunctions: ReadonlyMap<string, ApiFunction>;
  /** Stream consumers, by id (their IteratorAge). */
  streamConsumers: ReadonlyMap<string, ApiFunction>;
  table: dynamodb.ITable;
  /** Queues fed by the service, by readable name (age of the oldest message). */
  queues: ReadonlyMap<string, sqs.IQueue>;
  /** DLQs and the stream failure queue, by readable name (depth). */
  deadLetterQueues: ReadonlyMap<string, sqs.IQueue>;
  /** Metrics a worker publishes in the PaymentGateway namespace (embedded metric format), e.g. LedgerDifferences. */
  businessMetrics: readonly string[];
};

const PERIOD = Duration.minutes(5);
const WIDE = 24;
const HALF = 12;
const HEIGHT = 6;

const sum = (metric: cloudwatch.Metric, label: string) => metric.with({ statistic: cloudwatch.Stats.SUM, period: PERIOD, label });

/** One line per business metric (per method for those published per method), summed per period. */
function businessLines(names: readonly BusinessMetric[]): cloudwatch.Metric[] {
  return names.flatMap((name) =>
    PER_METHOD_METRICS.includes(name)
      ? PAYMENT_METHODS.map((method) =>
          businessMetric(name, { period: PERIOD, label: `${name} ${method}` }).with({ dimensionsMap: { service: METRICS_SERVICE, method } }),
        )
      : [businessMetric(name, { period: PERIOD, label: name })],
  );
}

/** The webhook success rate (%) over each period: successes / attempts. */
function webhookSuccessRate(): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    label: 'webhook success rate (%)',
    expression: 'IF(attempts > 0, 100 * successes / attempts, 100)',
    usingMetrics: {
      attempts: businessMetric(BUSINESS_METRICS.webhookAttempts, { period: PERIOD }),
      successes: businessMetric(BUSINESS_METRICS.webhookSuccesses, { period: PERIOD }),
    },
    period: PERIOD,
  });
}

/** The business metrics the functions publish (shared/platform/metrics.ts), in three widgets, and the webhook success rate. */
function businessRows(): cloudwatch.IWidget[] {
  const b = BUSINESS_METRICS;
  return [
    new cloudwatch.GraphWidget({
      title: 'Charges and payments (count)',
      width: HALF,
      height: HEIGHT,
      // PixAnomalies: Pix an API Pix PSP received that were not credited (another amount, a partial refund).
      left: businessLines([b.chargesCreated, b.paymentsConfirmed, b.cardDeclines, b.pixAnomalies]),
      legendPosition: cloudwatch.LegendPosition.RIGHT,
    }),
    new cloudwatch.GraphWidget({
      title: 'Withdrawals (count)',
      width: HALF,
      height: HEIGHT,
      left: businessLines([b.withdrawalsCreated, b.withdrawalsPaid, b.withdrawalsCanceled]),
    }),
    new cloudwatch.GraphWidget({
      title: 'Webhook success rate (%) and attempts',
      width: HALF,
      height: HEIGHT,
      left: [webhookSuccessRate()],
      right: businessLines([b.webhookAttempts, b.webhookSuccesses, b.webhookFailures, b.webhookSlowAnswers]),
      leftYAxis: { min: 0, max: 100 },
    }),
    new cloudwatch.GraphWidget({
      title: 'Idempotent replays, 409, 429 and 503 (count)',
      width: HALF,
      height: HEIGHT,
      left: businessLines([b.idempotentReplays, b.conflicts, b.rateLimited, b.unavailable]),
    }),
    // Issue 44: the panel's mail that did not arrive, and SES's reputation rates (alarmed at 5 % bounces, 0.1 % complaints).
    new cloudwatch.GraphWidget({
      title: 'Panel mail: not delivered, hard bounces, complaints (count); SES reputation (rate)',
      width: HALF,
      height: HEIGHT,
      left: businessLines([b.mailNotDelivered, b.mailHardBounces, b.mailComplaints]),
      right: ['Reputation.BounceRate', 'Reputation.ComplaintRate'].map(
        (metricName) => new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, label: metricName, period: PERIOD, statistic: cloudwatch.Stats.MAXIMUM }),
      ),
    }),
  ];
}

/** One line per function of the group for one Lambda metric. */
function perFunction(
  title: string,
  functions: ReadonlyMap<string, ApiFunction>,
  metricOf: (fn: ApiFunction) => cloudwatch.Metric,
  statistic: string,
  width = HALF,
): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({
    title,
    width,
    height: HEIGHT,
    left: [...functions].map(([id, fn]) => metricOf(fn).with({ statistic, period: PERIOD, label: id })),
    legendPosition: cloudwatch.LegendPosition.RIGHT,
  });
}

/** The four Lambda views of one group of functions: errors, throttles, duration p99, concurrency. */
function lambdaRows(group: string, functions: ReadonlyMap<string, ApiFunction>): cloudwatch.IWidget[] {
  return [
    perFunction(`${group}: Lambda errors`, functions, (fn) => fn.fn.metricErrors(), cloudwatch.Stats.SUM),
    perFunction(`${group}: Lambda throttles`, functions, (fn) => fn.fn.metricThrottles(), cloudwatch.Stats.SUM),
    perFunction(`${group}: Lambda duration p99 (ms)`, functions, (fn) => fn.fn.metricDuration(), cloudwatch.Stats.p(99)),
    perFunction(`${group}: Lambda concurrent executions (max)`, functions, (fn) => fn.fn.metric('ConcurrentExecutions'), cloudwatch.Stats.MAXIMUM),
  ];
}

/** API Gateway's per-route metric `metricName` (the stage's detailed metrics), one line per method and path. */
export function perRouteSearch(api: apigw.IHttpApi, metricName: string, statistic: string, label: string): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    label,
    expression: `SEARCH('{AWS/ApiGateway,ApiId,Method,Resource,Stage} MetricName="${metricName}" ApiId="${api.apiId}"', '${statistic}', ${PERIOD.toSeconds()})`,
    usingMetrics: {},
    period: PERIOD,
  });
}

/** Requests, 4xx, 5xx and latency p99 per route, from the stage's detailed metrics (a line per route). */
function perRouteRows(api: apigw.IHttpApi): cloudwatch.IWidget[] {
  const graph = (title: string, metricName: string, statistic: string) =>
    new cloudwatch.GraphWidget({
      title,
      width: HALF,
      height: HEIGHT,
      left: [perRouteSearch(api, metricName, statistic, '')],
      legendPosition: cloudwatch.LegendPosition.RIGHT,
    });
  return [
    graph('Requests per route', 'Count', 'Sum'),
    graph('4xx per route', '4xx', 'Sum'),
    graph('5xx per route', '5xx', 'Sum'),
    graph('Latency p99 per route (ms)', 'Latency', 'p99'),
  ];
}

/**
 * The on-call dashboard: the API as a whole and per route (the stage's detailed metrics: requests,
 * 4xx, 5xx, latency p99 per method and path), each route's function, the workers, the table, the
 * stream, the queues and DLQs, the webhook success rate and the business metrics.
 */
export function serviceDashboard(scope: Construct, id: string, name: string, sources: DashboardSources): cloudwatch.Dashboard {
  const { api, table } = sources;
  const tableMetric = (metricName: string, label: string) =>
    sum(new cloudwatch.Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: table.tableName } }), label);
  const dashboard = new cloudwatch.Dashboard(scope, id, { dashboardName: name, defaultInterval: Duration.hours(3) });
  dashboard.addWidgets(
    new cloudwatch.TextWidget({
      markdown: `# ${name}\nAlarms page the alarm topic; what each one means and what to do: docs/runbook.md. Per route: API Gateway's detailed metrics below, and the route's own function (one function per route).`,
      width: WIDE,
      height: 2,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'API requests, 4xx, 5xx',
      width: HALF,
      height: HEIGHT,
      left: [sum(api.metricCount(), 'requests'), sum(api.metricClientError(), '4xx'), sum(api.metricServerError(), '5xx')],
    }),
    new cloudwatch.GraphWidget({
      title: 'API 5xx rate (%) and latency p99 (ms)',
      width: HALF,
      height: HEIGHT,
      left: [api5xxRate(api)],
      right: [
        api.metricLatency({ statistic: cloudwatch.Stats.p(99), period: PERIOD, label: 'latency p99' }),
        api.metricIntegrationLatency({ statistic: cloudwatch.Stats.p(99), period: PERIOD, label: 'integration latency p99' }),
      ],
    }),
  );
  dashboard.addWidgets(...perRouteRows(api));
  dashboard.addWidgets(...lambdaRows('API routes', sources.routeFunctions));
  dashboard.addWidgets(...lambdaRows('Workers', sources.workerFunctions));
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'DynamoDB throttles and conflicts',
      width: HALF,
      height: HEIGHT,
      left: [
        tableMetric('ReadThrottleEvents', 'read throttles'),
        tableMetric('WriteThrottleEvents', 'write throttles'),
        tableMetric('TransactionConflict', 'transaction conflicts'),
        tableMetric('ConditionalCheckFailedRequests', 'conditional check failures'),
      ],
    }),
    new cloudwatch.GraphWidget({
      title: 'Table stream iterator age (ms, max)',
      width: HALF,
      height: HEIGHT,
      left: [...sources.streamConsumers].map(([cid, fn]) => fn.fn.metric('IteratorAge', { statistic: cloudwatch.Stats.MAXIMUM, period: PERIOD, label: cid })),
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Age of the oldest message per queue (s, max)',
      width: HALF,
      height: HEIGHT,
      left: [...sources.queues].map(([qid, queue]) =>
        queue.metricApproximateAgeOfOldestMessage({ statistic: cloudwatch.Stats.MAXIMUM, period: PERIOD, label: qid }),
      ),
    }),
    new cloudwatch.GraphWidget({
      title: 'DLQ depth (messages, max)',
      width: HALF,
      height: HEIGHT,
      left: [...sources.deadLetterQueues].map(([qid, queue]) =>
        queue.metricApproximateNumberOfMessagesVisible({ statistic: cloudwatch.Stats.MAXIMUM, period: PERIOD, label: qid }),
      ),
    }),
  );
  dashboard.addWidgets(...businessRows());
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: `Business metrics (${METRICS_NAMESPACE})`,
      width: WIDE,
      height: HEIGHT,
      left: sources.businessMetrics.map(
        (metricName) =>
          new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName, statistic: cloudwatch.Stats.MAXIMUM, period: Duration.days(1), label: metricName }),
      ),
    }),
  );
  return dashboard;
}
