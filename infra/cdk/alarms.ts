import { WEBHOOK_SLOW_ANSWER_MS } from '../../shared/domain/webhooks';
import { CfnCondition, CfnOutput, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { BUSINESS_METRICS, type BusinessMetric, METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/platform/metrics';
import type { ApiFunction } from './api-function';
import { ALARM_EMAIL_PARAMETER_PATTERN, type AlarmRecipient, NO_ALARM_RECIPIENT } from './settings';

/** The API's 5xx alarm: the share of answers that are 5xx, over this window, above this percentage… */
export const API_5XX_WINDOW = Duration.minutes(5);
export const API_5XX_PERCENT = 1;
/** …counted only when the window had at least this many requests (a single 5xx of three calls does not page). */
export const API_5XX_MIN_REQUESTS = 20;

/** A function's failures: unhandled errors (crash, timeout, out of memory) plus throttles, summed over this window… */
export const FUNCTION_FAILURES_WINDOW = Duration.minutes(5);
/** …at or above this count. Handlers answer domain errors themselves: an Errors data point is a crash or a timeout. */
export const FUNCTION_FAILURES_THRESHOLD = 3;
/** A function that already has its own errors alarm (scheduled and stream workers) is paged on any throttle in this window. */
export const THROTTLES_WINDOW = Duration.minutes(5);

/** The webhook failure-rate alarm: the share of webhook attempts that failed, over this window, above this percentage… */
export const WEBHOOK_FAILURE_WINDOW = Duration.minutes(15);
export const WEBHOOK_FAILURE_PERCENT = 25;
/** …counted only when the window had at least this many attempts (one merchant's endpoint down among a few attempts does not page). */
export const WEBHOOK_FAILURE_MIN_ATTEMPTS = 20;

/** A business metric (shared/platform/metrics.ts) as the functions publish it: namespace PaymentGateway, dimension service. */
export function businessMetric(name: BusinessMetric, props: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE },
    statistic: cloudwatch.Stats.SUM,
    ...props,
  });
}

/**
 * The share of webhook attempts that failed (non-2xx, timeout, blocked address) or answered 2xx only
 * after WEBHOOK_SLOW_ANSWER_MS (the attempt's recorded time to answer: one hiccup from a timeout), in
 * percent, over WEBHOOK_FAILURE_WINDOW; 0 when fewer than WEBHOOK_FAILURE_MIN_ATTEMPTS attempts were made.
 */
export function webhookFailureRate(period: Duration = WEBHOOK_FAILURE_WINDOW): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    label: 'webhook failure rate (%)',
    expression: `IF(attempts >= ${WEBHOOK_FAILURE_MIN_ATTEMPTS}, 100 * (failures + slow) / attempts, 0)`,
    usingMetrics: {
      attempts: businessMetric(BUSINESS_METRICS.webhookAttempts, { period }),
      failures: businessMetric(BUSINESS_METRICS.webhookFailures, { period }),
      slow: businessMetric(BUSINESS_METRICS.webhookSlowAnswers, { period }),
    },
    period,
  });
}

export function webhookFailureRateAlarm(scope: Construct, id: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: `More than ${WEBHOOK_FAILURE_PERCENT}% of webhook attempts failed, or answered only after ${WEBHOOK_SLOW_ANSWER_MS / 1000} s, in ${WEBHOOK_FAILURE_WINDOW.toMinutes()} minutes (at least ${WEBHOOK_FAILURE_MIN_ATTEMPTS} attempts): many merchants' endpoints refuse, time out or answer slowly, or the sender cannot reach them (egress, DNS, signing). Check the webhook sender's 'webhook attempt' log lines (httpStatus, error, durationMs), GET /api/events/{id}'s attempts and npm run admin -- webhook deliveries --status failed.`,
    metric: webhookFailureRate(),
    threshold: WEBHOOK_FAILURE_PERCENT,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** The Pix anomalies alarm: any anomaly in this window. */
export const PIX_ANOMALIES_WINDOW = Duration.minutes(5);

/**
 * Any Pix the PSP received that the gateway did not credit (its amount is not the invoice total, or a
 * second payment of a charge already paid) or a partial refund (shared/invoices/pix-outcomes.ts): money
 * moved at the PSP that the ledger does not show, for a person to settle. Deployed with an API Pix PSP
 * only (the simulated provider has none).
 */
export function pixAnomaliesAlarm(scope: Construct, id: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription:
      "A Pix the PSP received was not credited: its amount is not the invoice total, the charge was already paid, or the PSP reports a partial refund. The 'Pix anomaly: not credited' log line (the callback's or the Pix sweep's) names the invoice; npm run admin -- provider reconcile --txid T --stack NAME shows what the PSP holds. The money is at the PSP, not in the balance: tell the merchant (a refund of the payer is made at the PSP).",
    metric: businessMetric(BUSINESS_METRICS.pixAnomalies, { period: PIX_ANOMALIES_WINDOW }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * The on-call topic: KMS-encrypted with its own key (CloudWatch cannot publish to a topic under the
 * AWS-managed SNS key), SSL-only, publishable by this account's CloudWatch alarms, and with an email
 * subscription when the `alarmEmail` context value names an address, else from the deploy parameter
 * AlarmEmail (no default: a deploy must name a recipient, or `none`); `alarmTopicArn` replaces the topic.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, recipient: AlarmRecipient) {
    super(scope, id);
    const { account, region, partition } = Stack.of(this);
    const fromThisAccountsAlarms = {
      StringEquals: { 'aws:SourceAccount': account },
      ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
    };
    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts the payment gateway alarm topic (CloudWatch alarms publish to it)',
      enableKeyRotation: true,
    });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromThisAccountsAlarms,
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Payment gateway alarms',
      masterKey: this.key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromThisAccountsAlarms,
      }),
    );
    if (recipient.kind === 'email') this.topic.addSubscription(new subscriptions.EmailSubscription(recipient.email));
    if (recipient.kind === 'deploy-parameter') this.subscribeDeployParameter();
  }

  /**
   * No recipient in the context: the deploy names one. A parameter with no default makes `cdk deploy`
   * stop (before anything changes) until `--parameters AlarmEmail=<address>` or `AlarmEmail=none` is
   * given; later deploys keep the value given (the CLI reuses a parameter's previous value).
   */
  private subscribeDeployParameter(): void {
    const email = new CfnParameter(Stack.of(this), ALARM_EMAIL_PARAMETER, {
      type: 'String',
      description: 'Who receives the alarms: an email address (confirm the subscription it gets), or none to deploy without a recipient on purpose',
      allowedPattern: ALARM_EMAIL_PARAMETER_PATTERN,
      constraintDescription: 'an email address such as oncall@example.com, or none',
    });
    const given = new CfnCondition(this, 'HasAlarmEmail', { expression: Fn.conditionNot(Fn.conditionEquals(email.valueAsString, NO_ALARM_RECIPIENT)) });
    const subscription = new sns.CfnSubscription(this, 'EmailFromParameter', {
      protocol: 'email',
      endpoint: email.valueAsString,
      topicArn: this.topic.topicArn,
    });
    subscription.cfnOptions.condition = given;
    // AlarmEmail=none at deploy time: no synthesis sees it, so the deploy's own outputs say it (issue 44).
    const silent = new CfnCondition(this, 'NoAlarmEmail', { expression: Fn.conditionEquals(email.valueAsString, NO_ALARM_RECIPIENT) });
    const warning = new CfnOutput(Stack.of(this), ALARMS_UNHEARD_OUTPUT, {
      description: 'Present only when the deploy named AlarmEmail=none',
      value: ALARMS_UNHEARD_WARNING,
    });
    warning.condition = silent;
  }
}

/** The deploy parameter that names the alarms' recipient when the context does not. */
export const ALARM_EMAIL_PARAMETER = 'AlarmEmail';

/** The stack output `cdk deploy` prints when AlarmEmail=none was given: nobody hears the alarms. */
export const ALARMS_UNHEARD_OUTPUT = 'WarningAlarmsUnheard';
export const ALARMS_UNHEARD_WARNING =
  'AlarmEmail=none: the alarms notify a topic nobody is subscribed to. Subscribe someone to it (AlarmTopicArn output) before money moves.';

/** Sends each alarm's ALARM and OK transitions to the topic. */
export function notifyTopic(alarms: Iterable<cloudwatch.Alarm>, topic: sns.ITopic): void {
  const action = new actions.SnsAction(topic);
  for (const alarm of alarms) {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
}

/**
 * The share of the API's answers that are 5xx (API Gateway's own and the functions'), in percent,
 * over five minutes; 0 when fewer than API_5XX_MIN_REQUESTS requests came.
 */
export function api5xxRate(api: apigw.IHttpApi): cloudwatch.MathExpression {
  const period = API_5XX_WINDOW;
  return new cloudwatch.MathExpression({
    label: '5xx rate (%)',
    expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
    usingMetrics: {
      requests: api.metricCount({ period, statistic: cloudwatch.Stats.SUM }),
      errors: api.metricServerError({ period, statistic: cloudwatch.Stats.SUM }),
    },
    period,
  });
}

export function api5xxAlarm(scope: Construct, id: string, api: apigw.IHttpApi): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: `More than ${API_5XX_PERCENT}% of the API's answers in 5 minutes were 5xx (at least ${API_5XX_MIN_REQUESTS} requests): merchants see failures. Look at the dashboard's 5xx and Lambda errors per function, then the access logs.`,
    metric: api5xxRate(api),
    threshold: API_5XX_PERCENT,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** Errors + Throttles of one function, summed over FUNCTION_FAILURES_WINDOW (its metrics' ids end with `tag`: an alarm's ids are unique). */
export function functionFailures(fn: ApiFunction, tag = ''): cloudwatch.MathExpression {
  const period = FUNCTION_FAILURES_WINDOW;
  return new cloudwatch.MathExpression({
    label: 'errors + throttles',
    expression: `errors${tag} + throttles${tag}`,
    usingMetrics: {
      [`errors${tag}`]: fn.fn.metricErrors({ period, statistic: cloudwatch.Stats.SUM }),
      [`throttles${tag}`]: fn.fn.metricThrottles({ period, statistic: cloudwatch.Stats.SUM }),
    },
    period,
  });
}

/** An alarm reads at most 10 metrics (CloudWatch's hard limit for metric math), two per function: five functions per failures alarm. */
export const FUNCTIONS_PER_FAILURES_ALARM = 5;

/** The most errors + throttles of any one function of `fns` in the window: a group's alarm keeps the per-function threshold. */
export function mostFunctionFailures(fns: readonly ApiFunction[]): cloudwatch.MathExpression {
  if (fns.length === 0 || fns.length > FUNCTIONS_PER_FAILURES_ALARM)
    throw new Error(`a failures alarm watches 1 to ${FUNCTIONS_PER_FAILURES_ALARM} functions, not ${fns.length}`);
  const usingMetrics = Object.fromEntries(fns.map((fn, i) => [`f${i}`, functionFailures(fn, String(i))]));
  return new cloudwatch.MathExpression({
    label: 'most errors + throttles of one function',
    expression: `MAX([${Object.keys(usingMetrics).join(', ')}])`,
    usingMetrics,
    period: FUNCTION_FAILURES_WINDOW,
  });
}

/**
 * One alarm per group of up to five functions (the stack's 500-resource limit: one per function took 40
 * of them): it fires when any one of them failed or was throttled FUNCTION_FAILURES_THRESHOLD times or
 * more in the window, and its description names them.
 */
export function functionFailuresAlarm(scope: Construct, id: string, fns: ReadonlyMap<string, ApiFunction>): cloudwatch.Alarm {
  const names = [...fns.keys()].join(', ');
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: `One of these functions failed or was throttled ${FUNCTION_FAILURES_THRESHOLD} times or more in 5 minutes (a crash, a timeout or no concurrency left): ${names}. The dashboard's errors and throttles per function show which; then its log group.`,
    metric: mostFunctionFailures([...fns.values()]),
    threshold: FUNCTION_FAILURES_THRESHOLD,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** Any throttle of a function whose errors already have their own alarm (scheduled and stream workers). */
export function throttlesAlarm(scope: Construct, id: string, name: string, fn: ApiFunction): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: `The ${name} function was throttled (no concurrency left for it): its work waits or is retried. Check the account's concurrency and the reservations on the dashboard.`,
    metric: fn.fn.metricThrottles({ period: THROTTLES_WINDOW, statistic: cloudwatch.Stats.SUM }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * The SES reputation alarms (issue 44): AWS reviews an account whose bounce rate reaches 5 % and may
 * pause its sending at 10 %; complaints are reviewed at 0.1 % and paused at 0.5 %. The alarms fire at
 * the review points, well before a pause. SES publishes both rates (as fractions) for the account.
 */
export const SES_BOUNCE_RATE_THRESHOLD = 0.05;
export const SES_COMPLAINT_RATE_THRESHOLD = 0.001;
/** The window each reputation alarm reads (SES updates the rates a few times an hour). */
export const SES_REPUTATION_WINDOW = Duration.hours(1);

/** An alarm on one of SES's account reputation rates (namespace AWS/SES, no dimension), at or above `threshold` in the window. */
function reputationAlarm(scope: Construct, id: string, metricName: string, threshold: number, description: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric: new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, period: SES_REPUTATION_WINDOW, statistic: cloudwatch.Stats.MAXIMUM }),
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    // No mail sent yet, no rate: not an alarm.
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

export function sesBounceRateAlarm(scope: Construct, id: string): cloudwatch.Alarm {
  return reputationAlarm(
    scope,
    id,
    'Reputation.BounceRate',
    SES_BOUNCE_RATE_THRESHOLD,
    `The account's SES bounce rate reached ${SES_BOUNCE_RATE_THRESHOLD * 100} %: AWS reviews the account at 5 % and may pause its sending at 10 % (the panel's invites, reset links and sign-in notices stop). The mail feedback worker's 'mail hard bounce' log lines name the queued messages (mailId, kind); look for invites to mistyped or invented addresses, then the SES console's reputation page. Suppressed addresses are never mailed again.`,
  );
}

export function sesComplaintRateAlarm(scope: Construct, id: string): cloudwatch.Alarm {
  return reputationAlarm(
    scope,
    id,
    'Reputation.ComplaintRate',
    SES_COMPLAINT_RATE_THRESHOLD,
    `The account's SES complaint rate reached ${SES_COMPLAINT_RATE_THRESHOLD * 100} %: AWS reviews the account at 0.1 % and may pause its sending at 0.5 %. The mail feedback worker's 'mail complaint' log lines name the messages (mailId, kind): someone marks the panel's mail as spam (unwanted invites, sign-in notices?). Complaining addresses are suppressed.`,
  );
}
