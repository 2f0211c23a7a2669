import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/http/routes';
import { routeFunctions } from '../../shared/http/route';
import { checkoutUpkeepWorker, queueList, reconcileWorker, streamConsumerList, streamForwarder, sweepWorker } from '../../shared/platform/queues';
import { BUSINESS_METRICS, METRICS_NAMESPACE, METRICS_SERVICE, PAYMENT_METHODS } from '../../shared/platform/metrics';
import {
  ALARM_EMAIL_PARAMETER,
  ALARMS_UNHEARD_OUTPUT,
  ALARMS_UNHEARD_WARNING,
  API_5XX_MIN_REQUESTS,
  API_5XX_PERCENT,
  FUNCTION_FAILURES_THRESHOLD,
  WEBHOOK_FAILURE_MIN_ATTEMPTS,
  WEBHOOK_FAILURE_PERCENT,
  webhookFailureRateAlarm,
} from '../../infra/cdk/alarms';
import { ALARM_EMAIL_PARAMETER_PATTERN, readSettings } from '../../infra/cdk/settings';
import { buildApp } from '../../infra/stack';
import { type Json, NO_BUNDLING, type Resource, Synthesized } from './synthesized';

const EMAIL = 'oncall@pay.example.com';
const s = new Synthesized({ alarmEmail: EMAIL });
const { stack, template } = s;

type AlarmProps = {
  MetricName?: string;
  Namespace?: string;
  Statistic?: string;
  Period?: number;
  Threshold: number;
  ComparisonOperator: string;
  EvaluationPeriods: number;
  TreatMissingData?: string;
  AlarmDescription?: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Metrics?: {
    Id: string;
    Expression?: string;
    ReturnData?: boolean;
    MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Stat: string; Period: number };
  }[];
  AlarmActions?: unknown[];
  OKActions?: unknown[];
};

const topicId = s.logicalId(stack.alarmTopic);
/** The panel mail's feedback topic (issue 44: SES's bounces and complaints to a queue): not the alarm topic. */
const notMailFeedback =
  (synthesized: Synthesized) =>
  ([id]: [string, Resource]) =>
    id !== synthesized.logicalId(synthesized.stack.mailFeedback.topic);
/** The alarm topic's subscriptions (the mail feedback queue's SQS subscription aside). */
const alarmSubscriptions = (synthesized: Synthesized) => synthesized.ofType('AWS::SNS::Subscription').filter(([, r]) => r.Properties?.Protocol !== 'sqs');
const alarmProps = (name: string): AlarmProps => {
  const alarm = stack.alarms.get(name);
  if (!alarm) throw new Error(`no alarm ${name}`);
  const props = s.resources[s.logicalId(alarm)]?.Properties;
  if (!props) throw new Error(`no AWS::CloudWatch::Alarm for ${name}`);
  return props as unknown as AlarmProps;
};
const fnRef = (id: string) => ({ Ref: s.functionLogicalId(id) });
/** The metrics a math-expression alarm reads, by id. */
const metricsOf = (props: AlarmProps) => Object.fromEntries((props.Metrics ?? []).filter((m) => m.MetricStat).map((m) => [m.Id, m.MetricStat]));

/** Functions whose errors have an alarm of their own (tuned window): they get a throttles alarm besides. */
const OWN_ERRORS = [...streamConsumerList.map((c) => c.id), sweepWorker.id, checkoutUpkeepWorker.id, reconcileWorker.id];

/** The runbook's table: each alarm, what it reads and when it fires. */
type Expected = { metric: string; namespace: string; threshold: number; operator: string; dimension?: unknown };
function expectedAlarms(): Map<string, Expected> {
  const ge = 'GreaterThanOrEqualToThreshold';
  const expected = new Map<string, Expected>();
  for (const def of queueList) {
    const dlq = stack.queues.get(def.id)?.dlq;
    if (!dlq) throw new Error(def.id);
    expected.set(`${def.id} DLQ depth`, {
      metric: 'ApproximateNumberOfMessagesVisible',
      namespace: 'AWS/SQS',
      threshold: 1,
      operator: ge,
      dimension: { 'Fn::GetAtt': [s.logicalId(dlq), 'QueueName'] },
    });
    expected.set(`${def.id} recursive invocations dropped`, {
      metric: 'RecursiveInvocationsDropped',
      namespace: 'AWS/Lambda',
      threshold: 1,
      operator: ge,
      dimension: fnRef(`${def.id}Worker`),
    });
  }
  expected.set('stream failure queue depth', {
    metric: 'ApproximateNumberOfMessagesVisible',
    namespace: 'AWS/SQS',
    threshold: 1,
    operator: ge,
    dimension: { 'Fn::GetAtt': [s.logicalId(stack.streamFailures.queue), 'QueueName'] },
  });
  for (const def of streamConsumerList) {
    expected.set(`${def.id} errors`, { metric: 'Errors', namespace: 'AWS/Lambda', threshold: 1, operator: ge, dimension: fnRef(def.id) });
    expected.set(`${def.id} iterator age`, { metric: 'IteratorAge', namespace: 'AWS/Lambda', threshold: 300_000, operator: ge, dimension: fnRef(def.id) });
  }
  expected.set('Sweep errors', { metric: 'Errors', namespace: 'AWS/Lambda', threshold: 1, operator: ge, dimension: fnRef(sweepWorker.id) });
  expected.set(`${checkoutUpkeepWorker.id} errors`, {
    metric: 'Errors',
    namespace: 'AWS/Lambda',
    threshold: 1,
    operator: ge,
    dimension: fnRef(checkoutUpkeepWorker.id),
  });
  expected.set(`${reconcileWorker.id} errors`, { metric: 'Errors', namespace: 'AWS/Lambda', threshold: 1, operator: ge, dimension: fnRef(reconcileWorker.id) });
  expected.set('Ledger differences', { metric: 'LedgerDifferences', namespace: METRICS_NAMESPACE, threshold: 0, operator: 'GreaterThanThreshold' });
  for (const id of OWN_ERRORS)
    expected.set(`${id} throttles`, { metric: 'Throttles', namespace: 'AWS/Lambda', threshold: 1, operator: ge, dimension: fnRef(id) });
  return expected;
}

describe('the alarm topic', () => {
  it('is one KMS-encrypted topic under a rotated key CloudWatch may use, SSL-only, publishable by this account’s alarms', () => {
    const topics = s.ofType('AWS::SNS::Topic').filter(notMailFeedback(s));
    expect(topics).toHaveLength(1);
    const [[, topic] = ['', {} as Resource]] = topics;
    const keyRef = (topic.Properties?.KmsMasterKeyId as { 'Fn::GetAtt': string[] })['Fn::GetAtt'];
    const key = s.resources[keyRef[0] ?? ''];
    expect(key?.Type).toBe('AWS::KMS::Key');
    expect(key?.Properties?.EnableKeyRotation).toBe(true);
    const keyStatements = (key?.Properties?.KeyPolicy as { Statement: { Principal?: Json; Action: string | string[] }[] }).Statement;
    const forCloudWatch = keyStatements.filter((st) => JSON.stringify(st.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }));
    expect(forCloudWatch.flatMap((st) => st.Action)).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);

    const policies = s.ofType('AWS::SNS::TopicPolicy').filter(([, p]) => JSON.stringify(p.Properties?.Topics) === JSON.stringify([{ Ref: topicId }]));
    expect(policies).toHaveLength(1);
    const statements = (
      policies[0]?.[1].Properties?.PolicyDocument as { Statement: { Effect: string; Principal?: unknown; Action: unknown; Condition?: Json }[] }
    ).Statement;
    expect(statements.some((st) => st.Effect === 'Deny' && JSON.stringify(st.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }))).toBe(
      true,
    );
    const publish = statements.filter((st) => st.Effect === 'Allow' && st.Action === 'sns:Publish');
    expect(publish).toHaveLength(1);
    expect(publish[0]?.Principal).toEqual({ Service: 'cloudwatch.amazonaws.com' });
    expect(JSON.stringify(publish[0]?.Condition)).toContain('aws:SourceAccount');
  });

  it('subscribes the alarmEmail address by email, and asks for no deploy parameter then', () => {
    expect(alarmSubscriptions(s)).toHaveLength(1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: EMAIL, TopicArn: { Ref: topicId } });
    expect(Object.keys(template.toJSON().Parameters ?? {})).not.toContain(ALARM_EMAIL_PARAMETER);
  });

  it('without a recipient in the context, the deploy must name one: a parameter AlarmEmail with no default (an address or none), its subscription conditional (issue 25)', () => {
    const bare = new Synthesized();
    const json = bare.template.toJSON() as { Parameters: Record<string, Json>; Conditions: Record<string, Json> };
    const parameter = json.Parameters[ALARM_EMAIL_PARAMETER];
    expect(parameter).toMatchObject({ Type: 'String', AllowedPattern: ALARM_EMAIL_PARAMETER_PATTERN });
    expect(parameter).not.toHaveProperty('Default');
    const pattern = new RegExp(`^(?:${ALARM_EMAIL_PARAMETER_PATTERN})$`);
    for (const ok of ['none', 'oncall@example.com', 'a.b+c@pagamentos.com.br']) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['', 'oncall', 'a@b', 'x@example.com,y@example.com', ' oncall@example.com']) expect(pattern.test(bad), bad).toBe(false);
    const [[, subscription] = ['', {} as Resource & { Condition?: string }]] = alarmSubscriptions(bare);
    expect(subscription.Properties).toMatchObject({ Protocol: 'email', Endpoint: { Ref: ALARM_EMAIL_PARAMETER } });
    const condition = (subscription as { Condition?: string }).Condition ?? '';
    expect(json.Conditions[condition]).toEqual({ 'Fn::Not': [{ 'Fn::Equals': [{ Ref: ALARM_EMAIL_PARAMETER }, 'none'] }] });
    // AlarmEmail=none given at deploy time: the deploy's outputs say nobody hears the alarms (issue 44).
    const outputs = (bare.template.toJSON() as { Outputs: Record<string, { Condition?: string; Value?: unknown }> }).Outputs;
    const warning = outputs[ALARMS_UNHEARD_OUTPUT];
    expect(warning?.Value).toBe(ALARMS_UNHEARD_WARNING);
    expect(json.Conditions[warning?.Condition ?? '']).toEqual({ 'Fn::Equals': [{ Ref: ALARM_EMAIL_PARAMETER }, 'none'] });
    // A recipient in the context asks no parameter and warns of nothing.
    expect(Object.keys(template.toJSON().Outputs ?? {})).not.toContain(ALARMS_UNHEARD_OUTPUT);
  });

  it("the README's count of alarms is the template's (issue 44: it said 57, the template had 34)", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const stated = /\*\*Alarms and who hears them\.\*\* (\d+) CloudWatch alarms \((\d+) with a Pix PSP\)/.exec(readme);
    expect(stated).not.toBeNull();
    const withPsp = new Synthesized({
      apiPixBaseUrl: 'https://psp.example/api/v2',
      apiPixClientId: 'gateway-client',
      apiPixPixKey: 'pix@loja.example',
      apiPixSecretName: 'payment-gateway/apipix',
    });
    expect([Number(stated?.[1]), Number(stated?.[2])]).toEqual([
      new Synthesized().ofType('AWS::CloudWatch::Alarm').length,
      withPsp.ofType('AWS::CloudWatch::Alarm').length,
    ]);
  });

  it('alarmEmail=none: no recipient on purpose (no subscription, no parameter, a synth warning); alarmTopicArn: the alarms notify that topic instead', () => {
    const silent = new Synthesized({ alarmEmail: 'none' });
    expect(alarmSubscriptions(silent)).toEqual([]);
    expect(Object.keys(silent.template.toJSON().Parameters ?? {})).not.toContain(ALARM_EMAIL_PARAMETER);
    expect(JSON.stringify(Annotations.fromStack(silent.stack).findWarning('*', Match.anyValue()))).toContain('nobody is subscribed');

    const arn = 'arn:aws:sns:sa-east-1:123456789012:on-call';
    const existing = new Synthesized({ alarmTopicArn: arn });
    expect(existing.ofType('AWS::SNS::Topic').filter(notMailFeedback(existing))).toEqual([]);
    expect(alarmSubscriptions(existing)).toEqual([]);
    for (const [id, alarm] of existing.ofType('AWS::CloudWatch::Alarm')) expect(alarm.Properties?.AlarmActions, id).toEqual([arn]);
    const settingsOf = (context: Record<string, unknown>) => readSettings(new App({ context }).node);
    expect(() => settingsOf({ alarmTopicArn: 'on-call' })).toThrow(/alarmTopicArn=.*expected an SNS topic ARN/);
    expect(() => settingsOf({ alarmTopicArn: arn, alarmEmail: EMAIL })).toThrow(/not both/);
  });

  it('reads alarmEmail from the context like the other settings, refusing what is not one address', () => {
    const settingsOf = (context: Record<string, unknown>) => readSettings(new App({ context }).node);
    expect(settingsOf({}).alarmEmail).toBeUndefined();
    expect(settingsOf({ alarmEmail: '' }).alarmEmail).toBeUndefined();
    expect(settingsOf({ alarmEmail: ` ${EMAIL} ` }).alarmEmail).toBe(EMAIL);
    for (const bad of ['oncall', 'a@b', 'a@example.com,b@example.com', 'On Call <oncall@example.com>', 'a b@example.com']) {
      expect(() => settingsOf({ alarmEmail: bad }), bad).toThrow(/CDK context alarmEmail=.*expected one email address/);
    }
    expect(() => settingsOf({ alarmEmail: 42 })).toThrow(/alarmEmail: expected a string/);
  });
});

describe('the alarms', () => {
  it('sends every alarm of the template, ALARM and OK, to the topic and nowhere else', () => {
    const alarms = s.ofType('AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(stack.alarms.size);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties?.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties?.OKActions, id).toEqual([{ Ref: topicId }]);
    }
  });

  it('has a throttles alarm per function whose errors have their own, an errors-and-throttles alarm per five other functions, the 5xx rate and the alarms before', () => {
    const ids = [...stack.functions.keys()];
    const others = ids.filter((id) => !OWN_ERRORS.includes(id));
    const groups = others.filter((_, i) => i % 5 === 0).map((_, g) => `${others.slice(g * 5, g * 5 + 5).join(', ')} errors and throttles`);
    const perFunction = [...ids.filter((id) => OWN_ERRORS.includes(id)).map((id) => `${id} throttles`), ...groups];
    expect([...stack.alarms.keys()].sort()).toEqual(
      [
        ...expectedAlarms().keys(),
        'API 5xx rate',
        'Webhook failure rate',
        'Card declines by merchant',
        'Direct origin calls',
        'Reconcile schedule failed',
        'SES bounce rate',
        'SES complaint rate',
        ...perFunction,
      ]
        .filter((n, i, all) => all.indexOf(n) === i)
        .sort(),
    );
    // Routes, the fallback, queue workers, stream consumers, sweep, upkeep, reconciliation, the edge-origin authorizer.
    expect(stack.functions.size).toBe(routeFunctions(routeList).size + 1 + queueList.length + streamConsumerList.length + 4);
  });

  it("alarms when one merchant has 20 or more declined card attempts in 5 minutes: a Contributor Insights rule over the card routes' logs, by accountId", () => {
    const [rule] = s.ofType('AWS::CloudWatch::InsightRule');
    expect(rule).toBeDefined();
    const props = rule?.[1].Properties as { RuleName: string; RuleState: string; RuleBody: unknown };
    expect(props.RuleState).toBe('ENABLED');
    const body = JSON.stringify(stack.resolve(props.RuleBody));
    for (const part of ['CloudWatchLogRule', '$.accountId', 'card declined', '$.message', 'Count']) expect(body).toContain(part);
    for (const id of [routes.checkoutCard.id, routes.createCard.id]) expect(body).toContain(s.logicalId(stack.functions.get(id)?.logGroup ?? stack));
    const alarm = alarmProps('Card declines by merchant') as { Metrics?: { Expression?: string }[]; Threshold?: number; EvaluationPeriods?: number };
    expect(JSON.stringify(alarm.Metrics)).toContain('INSIGHT_RULE_METRIC');
    expect(JSON.stringify(alarm.Metrics)).toContain('MaxContributorValue');
    expect(alarm.Threshold).toBe(20);
  });

  it('reads the right metric with the right threshold in each single-metric alarm', () => {
    for (const [name, want] of expectedAlarms()) {
      const props = alarmProps(name);
      expect(props, name).toMatchObject({ MetricName: want.metric, Namespace: want.namespace, Threshold: want.threshold, ComparisonOperator: want.operator });
      if (want.dimension !== undefined)
        expect(
          props.Dimensions?.map((d) => d.Value),
          name,
        ).toEqual([want.dimension]);
    }
    expect(alarmProps(`${streamForwarder.id} throttles`)).toMatchObject({
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('alarms when more than 1% of at least 20 requests in 5 minutes are 5xx (ApiId metrics, a math expression)', () => {
    expect([API_5XX_PERCENT, API_5XX_MIN_REQUESTS]).toEqual([1, 20]);
    const props = alarmProps('API 5xx rate');
    expect(props).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    const result = props.Metrics?.find((m) => m.ReturnData !== false);
    expect(result?.Expression).toBe('IF(requests >= 20, 100 * errors / requests, 0)');
    const metrics = metricsOf(props);
    const apiDimension = [{ Name: 'ApiId', Value: { Ref: s.logicalId(stack.api) } }];
    expect(metrics.requests).toEqual({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: apiDimension }, Stat: 'Sum', Period: 300 });
    expect(metrics.errors).toEqual({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: apiDimension }, Stat: 'Sum', Period: 300 });
  });

  it(`alarms on each route function and queue worker at ${FUNCTION_FAILURES_THRESHOLD} errors + throttles of any one of them in 5 minutes, five functions to an alarm`, () => {
    expect(FUNCTION_FAILURES_THRESHOLD).toBe(3);
    const ids = [...stack.functions.keys()].filter((id) => !OWN_ERRORS.includes(id));
    expect(ids).toEqual(expect.arrayContaining([...routeFunctions(routeList).keys(), 'Fallback', ...queueList.map((q) => `${q.id}Worker`)]));
    const groups = [...stack.alarms.keys()].filter((name) => name.endsWith(' errors and throttles'));
    const watched = groups.flatMap((name) => name.replace(/ errors and throttles$/, '').split(', '));
    // Each function is in exactly one group, and a group holds at most five (an alarm reads at most 10 metrics).
    expect([...watched].sort()).toEqual([...ids].sort());
    expect(groups.length).toBe(Math.ceil(ids.length / 5));
    for (const name of groups) {
      const members = name.replace(/ errors and throttles$/, '').split(', ');
      expect(members.length, name).toBeLessThanOrEqual(5);
      const props = alarmProps(name);
      expect(props, name).toMatchObject({
        Threshold: 3,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      const expressions = Object.fromEntries((props.Metrics ?? []).filter((m) => m.Expression).map((m) => [m.Id, m]));
      // The alarm watches the most failures of one function, so the threshold is still per function.
      expect(props.Metrics?.find((m) => m.ReturnData !== false)?.Expression, name).toBe(`MAX([${members.map((_, i) => `f${i}`).join(', ')}])`);
      const metrics = metricsOf(props);
      expect(Object.keys(metrics)).toHaveLength(members.length * 2);
      members.forEach((id, i) => {
        expect(expressions[`f${i}`]?.Expression, id).toBe(`errors${i} + throttles${i}`);
        expect(expressions[`f${i}`]?.ReturnData, id).toBe(false);
        const dimension = [{ Name: 'FunctionName', Value: fnRef(id) }];
        expect(metrics[`errors${i}`], id).toEqual({
          Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: dimension },
          Stat: 'Sum',
          Period: 300,
        });
        expect(metrics[`throttles${i}`], id).toEqual({
          Metric: { Namespace: 'AWS/Lambda', MetricName: 'Throttles', Dimensions: dimension },
          Stat: 'Sum',
          Period: 300,
        });
      });
      expect(props.AlarmDescription, name).toContain(members.join(', '));
    }
  });
});

describe('the webhook failure-rate alarm (infra/cdk/alarms.ts)', () => {
  const scratch = new Stack(new App(), 'WebhookAlarmScratch');
  webhookFailureRateAlarm(scratch, 'WebhookFailureRate');
  const alarms = Template.fromStack(scratch).findResources('AWS::CloudWatch::Alarm');
  const props = Object.values(alarms)[0]?.Properties as AlarmProps;

  it('alarms when more than 25% of at least 20 webhook attempts in 15 minutes failed or answered only after 5 s (the business metrics, a math expression)', () => {
    expect(Object.keys(alarms)).toHaveLength(1);
    expect([WEBHOOK_FAILURE_PERCENT, WEBHOOK_FAILURE_MIN_ATTEMPTS]).toEqual([25, 20]);
    expect(props).toMatchObject({ Threshold: 25, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(props.Metrics?.find((m) => m.ReturnData !== false)?.Expression).toBe('IF(attempts >= 20, 100 * (failures + slow) / attempts, 0)');
    const dimensions = [{ Name: 'service', Value: METRICS_SERVICE }];
    const metrics = metricsOf(props);
    expect(metrics.attempts).toEqual({
      Metric: { Namespace: 'PaymentGateway', MetricName: 'WebhookAttempts', Dimensions: dimensions },
      Stat: 'Sum',
      Period: 900,
    });
    expect(metrics.failures).toEqual({
      Metric: { Namespace: 'PaymentGateway', MetricName: 'WebhookFailures', Dimensions: dimensions },
      Stat: 'Sum',
      Period: 900,
    });
    expect(metrics.slow).toEqual({
      Metric: { Namespace: 'PaymentGateway', MetricName: 'WebhookSlowAnswers', Dimensions: dimensions },
      Stat: 'Sum',
      Period: 900,
    });
  });
});

describe('tracing', () => {
  it('turns X-Ray active tracing on for every function, each allowed to send its segments', () => {
    // Routes, the fallback, queue workers, stream consumers, sweep, upkeep, reconciliation, the edge-origin authorizer.
    expect(stack.functions.size).toBe(routeFunctions(routeList).size + 1 + queueList.length + streamConsumerList.length + 4);
    for (const id of stack.functions.keys()) {
      expect(s.functionProps(id).TracingConfig, id).toEqual({ Mode: 'Active' });
      const xray = s.roleStatements(id).filter((st) => (Array.isArray(st.Action) ? st.Action : [st.Action]).some((a) => a.startsWith('xray:')));
      expect(xray.flatMap((st) => st.Action).sort(), id).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    }
  });
});

/** The dashboard body with every CloudFormation reference replaced by `{ref:<logical id>}`, parsed. */
type Widget = { type: string; properties: { title?: string; metrics?: unknown[][]; markdown?: string } };
function dashboardBody(resources: Record<string, Resource>): { widgets: Widget[] } {
  const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  const body = dashboards[0]?.Properties?.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
  const text =
    typeof body === 'string'
      ? body
      : body['Fn::Join'][1]
          .map((part) => {
            if (typeof part === 'string') return part;
            const ref = part as { Ref?: string; 'Fn::GetAtt'?: string[] };
            return `{ref:${ref.Ref ?? (ref['Fn::GetAtt'] ?? []).join('.')}}`;
          })
          .join('');
  return JSON.parse(text) as { widgets: Widget[] };
}

describe('the dashboard', () => {
  const { widgets } = dashboardBody(s.resources);
  const widget = (title: string) => {
    const found = widgets.filter((w) => w.properties.title === title);
    expect(found, title).toHaveLength(1);
    return found[0] as Widget;
  };
  /** [namespace, metric name, ...dimension name/value pairs] of each line of a widget. */
  const lines = (title: string) => (widget(title).properties.metrics ?? []).map((m) => m.filter((x) => typeof x === 'string'));
  const ref = (logicalId: string) => `{ref:${logicalId}}`;

  it('shows API requests, 4xx, 5xx, the 5xx rate and latency p99 of the API', () => {
    const apiRef = ref(s.logicalId(stack.api));
    expect(lines('API requests, 4xx, 5xx')).toEqual(['Count', '4xx', '5xx'].map((name) => ['AWS/ApiGateway', name, 'ApiId', apiRef]));
    const latency = widget('API 5xx rate (%) and latency p99 (ms)');
    const text = JSON.stringify(latency.properties.metrics);
    expect(text).toContain('100 * errors / requests');
    expect(text).toContain('"AWS/ApiGateway","Latency","ApiId"');
    expect(text).toContain('"stat":"p99"');
  });

  it("shows requests, 4xx, 5xx and latency p99 per route from the stage's detailed metrics (one SEARCH line per route)", () => {
    const apiRef = ref(s.logicalId(stack.api));
    for (const [title, metric, stat] of [
      ['Requests per route', 'Count', 'Sum'],
      ['4xx per route', '4xx', 'Sum'],
      ['5xx per route', '5xx', 'Sum'],
      ['Latency p99 per route (ms)', 'Latency', 'p99'],
    ] as const) {
      const text = JSON.stringify(widget(title).properties.metrics);
      expect(text, title).toContain(`SEARCH('{AWS/ApiGateway,ApiId,Method,Resource,Stage} MetricName=\\"${metric}\\" ApiId=\\"${apiRef}\\"', '${stat}', 300)`);
    }
    // Detailed metrics are what API Gateway publishes per route.
    const [[, stage] = ['', { Properties: {} }]] = s.ofType('AWS::ApiGatewayV2::Stage');
    expect((stage.Properties as Record<string, unknown> | undefined)?.DefaultRouteSettings).toMatchObject({ DetailedMetricsEnabled: true });
  });

  it('shows errors, throttles, duration p99 and concurrency for every route function and every worker, one line each', () => {
    const isRoute = (id: string) => id === 'Fallback' || routeFunctions(routeList).has(id);
    const routeIds = [...stack.functions.keys()].filter(isRoute);
    const workerIds = [...stack.functions.keys()].filter((id) => !isRoute(id));
    expect(routeIds).toHaveLength(routeFunctions(routeList).size + 1);
    for (const [group, ids] of [
      ['API routes', routeIds],
      ['Workers', workerIds],
    ] as const) {
      for (const [title, metric] of [
        ['Lambda errors', 'Errors'],
        ['Lambda throttles', 'Throttles'],
        ['Lambda duration p99 (ms)', 'Duration'],
        ['Lambda concurrent executions (max)', 'ConcurrentExecutions'],
      ]) {
        expect(lines(`${group}: ${title}`), `${group} ${metric}`).toEqual(
          ids.map((id) => ['AWS/Lambda', metric, 'FunctionName', ref(s.functionLogicalId(id))]),
        );
      }
    }
    expect(JSON.stringify(widget('API routes: Lambda duration p99 (ms)').properties.metrics)).toContain('"stat":"p99"');
  });

  it('shows DynamoDB throttles and transaction conflicts, the stream iterator age, queue ages, DLQ depths and LedgerDifferences', () => {
    const tableRef = ref(s.logicalId(stack.table));
    expect(lines('DynamoDB throttles and conflicts')).toEqual(
      ['ReadThrottleEvents', 'WriteThrottleEvents', 'TransactionConflict', 'ConditionalCheckFailedRequests'].map((m) => [
        'AWS/DynamoDB',
        m,
        'TableName',
        tableRef,
      ]),
    );
    expect(lines('Table stream iterator age (ms, max)')).toEqual(
      streamConsumerList.map((c) => ['AWS/Lambda', 'IteratorAge', 'FunctionName', ref(s.functionLogicalId(c.id))]),
    );
    const queueName = (q: { node: { defaultChild?: unknown } } | undefined) => {
      if (!q) throw new Error('no such queue');
      return `{ref:${s.logicalId(q)}.QueueName}`;
    };
    expect(lines('Age of the oldest message per queue (s, max)')).toEqual(
      queueList.map((q) => ['AWS/SQS', 'ApproximateAgeOfOldestMessage', 'QueueName', queueName(stack.queues.get(q.id)?.queue)]),
    );
    expect(lines('DLQ depth (messages, max)')).toEqual([
      ...queueList.map((q) => ['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', queueName(stack.queues.get(q.id)?.dlq)]),
      ['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', queueName(stack.streamFailures.queue)],
    ]);
    expect(lines(`Business metrics (${METRICS_NAMESPACE})`)).toEqual([['PaymentGateway', 'LedgerDifferences']]);
  });

  it('shows the business metrics (per method where published per method) and the webhook success rate', () => {
    const b = BUSINESS_METRICS;
    const plain = (name: string) => ['PaymentGateway', name, 'service', METRICS_SERVICE];
    const perMethod = (name: string) => PAYMENT_METHODS.map((m) => ['PaymentGateway', name, 'method', m, 'service', METRICS_SERVICE]);
    expect(lines('Charges and payments (count)')).toEqual([
      ...perMethod(b.chargesCreated),
      ...perMethod(b.paymentsConfirmed),
      plain(b.cardDeclines),
      plain(b.pixAnomalies),
    ]);
    expect(lines('Withdrawals (count)')).toEqual([b.withdrawalsCreated, b.withdrawalsPaid, b.withdrawalsCanceled].map(plain));
    expect(lines('Idempotent replays, 409, 429 and 503 (count)')).toEqual([b.idempotentReplays, b.conflicts, b.rateLimited, b.unavailable].map(plain));
    // Issue 44: the panel's mail, beside SES's account reputation rates (what the SES alarms read).
    expect(lines('Panel mail: not delivered, hard bounces, complaints (count); SES reputation (rate)')).toEqual([
      ...[b.mailNotDelivered, b.mailHardBounces, b.mailComplaints].map(plain),
      ['AWS/SES', 'Reputation.BounceRate'],
      ['AWS/SES', 'Reputation.ComplaintRate'],
    ]);
    const webhooks = widget('Webhook success rate (%) and attempts');
    const text = JSON.stringify(webhooks.properties.metrics);
    expect(text).toContain('IF(attempts > 0, 100 * successes / attempts, 100)');
    for (const name of [b.webhookAttempts, b.webhookSuccesses, b.webhookFailures, b.webhookSlowAnswers])
      expect(text).toContain(`"PaymentGateway","${name}","service","${METRICS_SERVICE}"`);
    for (const name of Object.values(b)) expect(JSON.stringify(widgets), name).toContain(`"${name}"`);
  });
});

describe('cdk synth output', () => {
  it('contains the dashboard, the topic and every alarm pointing at the topic (the cloud assembly `cdk synth` writes, cdk-nag on)', () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-observability-'));
    try {
      const { app, stack: built } = buildApp({ context: { ...NO_BUNDLING, alarmEmail: EMAIL }, outdir });
      const artifact = app.synth().getStackByName(built.stackName);
      const synthesized = JSON.parse(readFileSync(path.join(outdir, artifact.templateFile), 'utf8')) as { Resources: Record<string, Resource> };
      const ofType = (type: string) => Object.values(synthesized.Resources).filter((r) => r.Type === type);
      expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
      const feedbackTopic = built.getLogicalId(built.mailFeedback.topic.node.defaultChild as CfnElement);
      expect(ofType('AWS::SNS::Topic')).toHaveLength(2);
      const topic = Object.entries(synthesized.Resources).find(([id, r]) => r.Type === 'AWS::SNS::Topic' && id !== feedbackTopic)?.[0];
      const alarms = ofType('AWS::CloudWatch::Alarm');
      expect(alarms).toHaveLength(built.alarms.size);
      for (const alarm of alarms) expect(alarm.Properties?.AlarmActions).toEqual([{ Ref: topic }]);
      const body = JSON.stringify(dashboardBody(synthesized.Resources));
      for (const metric of [
        '5xx',
        '4xx',
        'Latency',
        'Errors',
        'Throttles',
        'Duration',
        'ConcurrentExecutions',
        'TransactionConflict',
        'IteratorAge',
        'ApproximateAgeOfOldestMessage',
        'LedgerDifferences',
      ]) {
        expect(body, metric).toContain(`"${metric}"`);
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
