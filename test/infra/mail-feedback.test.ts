import { describe, expect, it } from 'vitest';
import { SES_BOUNCE_RATE_THRESHOLD, SES_COMPLAINT_RATE_THRESHOLD } from '../../infra/cdk/alarms';
import { queues } from '../../shared/platform/queues';
import { actionsOf, type Json, Synthesized } from './synthesized';

/**
 * Issue 44, "Mail feedback": the SES configuration set every panel message is sent through, its bounce
 * and complaint events to an SNS topic and on to the mail feedback queue (with its DLQ and consumer),
 * the mail worker's grant on the configuration set, and the SES reputation alarms.
 */
const MAIL_FROM = 'painel@pay.example.com';
const s = new Synthesized({ alarmEmail: 'oncall@pay.example.com', mailFrom: MAIL_FROM });
const { stack } = s;
const feedback = stack.mailFeedback;
const setId = s.logicalId(feedback.configurationSet);
const topicId = s.logicalId(feedback.topic);
const keyId = s.logicalId(feedback.key);
const feedbackQueue = stack.queues.get(queues.mailFeedback.id);
if (!feedbackQueue) throw new Error('no mail feedback queue');
const queueId = s.logicalId(feedbackQueue.queue);
const getAtt = (id: string, attribute: string) => ({ 'Fn::GetAtt': [id, attribute] });
/** The configuration set's ARN as the template writes it (…:configuration-set/<its Ref>). */
const setArn = JSON.stringify({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':configuration-set/', { Ref: setId }]],
});

type Statement = { Effect: string; Principal?: unknown; Action: string | string[]; Resource?: unknown; Condition?: Record<string, Record<string, unknown>> };
const policyStatements = (type: string, key: string, target: unknown) =>
  s
    .ofType(type)
    .filter(([, r]) => JSON.stringify(r.Properties?.[key]) === JSON.stringify([target]))
    .flatMap(([, r]) => (r.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);

describe('the SES configuration set and its events (issue 44)', () => {
  it('is one configuration set, sending, with reputation metrics and SES’s suppression of hard bounces and complaints', () => {
    expect(s.ofType('AWS::SES::ConfigurationSet')).toHaveLength(1);
    expect(s.resources[setId]?.Properties).toMatchObject({
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  it('publishes bounces and complaints (nothing else) to the feedback topic', () => {
    const destinations = s.ofType('AWS::SES::ConfigurationSetEventDestination');
    expect(destinations).toHaveLength(1);
    expect(destinations[0]?.[1].Properties).toMatchObject({
      ConfigurationSetName: { Ref: setId },
      EventDestination: { Enabled: true, MatchingEventTypes: ['bounce', 'complaint'], SnsDestination: { TopicARN: { Ref: topicId } } },
    });
  });

  it('encrypts the topic with a rotated key of its own that SES may use for this configuration set only; only SES of this account publishes to it, over TLS', () => {
    const topic = s.resources[topicId]?.Properties as Json;
    expect(topic.KmsMasterKeyId).toEqual(getAtt(keyId, 'Arn'));
    const key = s.resources[keyId]?.Properties as { EnableKeyRotation: boolean; KeyPolicy: { Statement: Statement[] } };
    expect(key.EnableKeyRotation).toBe(true);
    const forSes = key.KeyPolicy.Statement.filter((st) => JSON.stringify(st.Principal) === JSON.stringify({ Service: 'ses.amazonaws.com' }));
    expect(forSes.flatMap((st) => st.Action)).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
    expect(JSON.stringify(forSes[0]?.Condition?.StringEquals?.['aws:SourceArn'])).toBe(setArn);
    const statements = policyStatements('AWS::SNS::TopicPolicy', 'Topics', { Ref: topicId });
    const publish = statements.filter((st) => st.Effect === 'Allow');
    expect(publish).toHaveLength(1);
    expect(publish[0]).toMatchObject({ Principal: { Service: 'ses.amazonaws.com' }, Action: 'sns:Publish' });
    expect(JSON.stringify(publish[0]?.Condition)).toContain('configuration-set/');
    expect(statements.some((st) => st.Effect === 'Deny' && JSON.stringify(st.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }))).toBe(
      true,
    );
  });

  it('delivers the topic to the mail feedback queue (SNS’s envelope kept), which only that topic may send to', () => {
    const subscriptions = s.ofType('AWS::SNS::Subscription').filter(([, r]) => r.Properties?.Protocol === 'sqs');
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]?.[1].Properties).toMatchObject({ TopicArn: { Ref: topicId }, Endpoint: getAtt(queueId, 'Arn') });
    expect(subscriptions[0]?.[1].Properties?.RawMessageDelivery).toBeUndefined();
    const allows = policyStatements('AWS::SQS::QueuePolicy', 'Queues', { Ref: queueId }).filter((st) => st.Effect === 'Allow');
    expect(allows).toEqual([
      expect.objectContaining({
        Principal: { Service: 'sns.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Condition: { ArnEquals: { 'aws:SourceArn': { Ref: topicId } } },
      }),
    ]);
  });

  it('gives the queue a DLQ (alarmed) and a consumer of its own that writes only the suppressed addresses', () => {
    expect(s.resources[queueId]?.Properties?.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(s.logicalId(feedbackQueue.dlq), 'Arn'),
      maxReceiveCount: queues.mailFeedback.maxReceiveCount,
    });
    expect(stack.alarms.has(`${queues.mailFeedback.id} DLQ depth`)).toBe(true);
    const consumer = `${queues.mailFeedback.id}Worker`;
    const mappings = s
      .ofType('AWS::Lambda::EventSourceMapping')
      .filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(getAtt(queueId, 'Arn')));
    expect(mappings.map(([, m]) => m.Properties?.FunctionName)).toEqual([{ Ref: s.functionLogicalId(consumer) }]);
    const actions = actionsOf(s.roleStatements(consumer)).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'));
    // Receives from its queue (the event source's), puts suppressions; no secret, no send, no mail.
    expect(
      actions.filter(
        (a) => !a.startsWith('sqs:Receive') && !['sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'].includes(a),
      ),
    ).toEqual(['dynamodb:PutItem']);
    // Nothing sends to it but SES: no function is given its URL.
    for (const id of stack.functions.keys())
      expect((s.functionProps(id).Environment as { Variables: Json }).Variables[queues.mailFeedback.urlEnv], id).toBeUndefined();
  });
});

describe("the mail worker's sending through the configuration set (issue 44)", () => {
  it('names the configuration set in MAIL_CONFIGURATION_SET, the mail worker only', () => {
    const variables = (id: string) => (s.functionProps(id).Environment as { Variables: Json }).Variables;
    expect(variables(`${queues.mail.id}Worker`).MAIL_CONFIGURATION_SET).toEqual({ Ref: setId });
    for (const id of stack.functions.keys()) if (id !== `${queues.mail.id}Worker`) expect(variables(id).MAIL_CONFIGURATION_SET, id).toBeUndefined();
  });

  it('may send on the configuration set as well as on the sending identities (AWS authorizes both), from MAIL_FROM only', () => {
    const ses = s.roleStatements(`${queues.mail.id}Worker`).filter((st) => JSON.stringify(st.Action).includes('ses:'));
    expect(ses).toHaveLength(1);
    expect(ses[0]?.Action).toBe('ses:SendEmail');
    expect(ses[0]?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': MAIL_FROM } });
    const resources = (ses[0]?.Resource as unknown[]).map((r) => JSON.stringify(r));
    expect(resources).toHaveLength(3);
    expect(resources).toContain(setArn);
  });
});

describe('the SES reputation alarms (issue 44)', () => {
  const props = (name: string) => {
    const alarm = stack.alarms.get(name);
    if (!alarm) throw new Error(`no alarm ${name}`);
    return s.resources[s.logicalId(alarm)]?.Properties as Json;
  };

  it('alarm on the account’s bounce rate at 5 % and complaint rate at 0.1 % (AWS reviews there, pauses at 10 % and 0.5 %), notifying the alarm topic', () => {
    expect(SES_BOUNCE_RATE_THRESHOLD).toBeLessThan(0.1);
    expect(SES_COMPLAINT_RATE_THRESHOLD).toBeLessThan(0.005);
    for (const [name, metric, threshold] of [
      ['SES bounce rate', 'Reputation.BounceRate', 0.05],
      ['SES complaint rate', 'Reputation.ComplaintRate', 0.001],
    ] as const) {
      expect(props(name), name).toMatchObject({
        Namespace: 'AWS/SES',
        MetricName: metric,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: s.logicalId(stack.alarmTopic) }],
      });
      // The account's rate: no dimension.
      expect(props(name).Dimensions, name).toBeUndefined();
    }
  });
});
