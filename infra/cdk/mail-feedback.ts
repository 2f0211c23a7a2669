import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** The SES events the configuration set publishes to the feedback topic: what the panel's mail acts on. */
export const MAIL_FEEDBACK_EVENTS: readonly ses.EmailSendingEvent[] = [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT];

/**
 * The panel mail's feedback loop (issue 44): the SES configuration set every message is sent through
 * (reputation metrics on; SES's suppression list adds hard bounces and complaints too), its event
 * destination (bounces and complaints to an SNS topic under its own KMS key, which SES may use for this
 * configuration set only), and the mail feedback queue subscribed to the topic (SNS's envelope kept: the
 * consumer reads both forms). The consumer and its grants are the queue's (shared/platform/queues.ts).
 */
export class MailFeedback extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  readonly topic: sns.Topic;
  readonly key: kms.Key;
  /** The configuration set's ARN: the mail worker's ses:SendEmail names it (AWS authorizes the send on it too). */
  readonly configurationSetArn: string;

  constructor(scope: Construct, id: string, props: { queue: sqs.IQueue }) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    const stack = Stack.of(this);
    this.configurationSetArn = stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName });
    const fromThisConfigurationSet = { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': this.configurationSetArn } };
    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts the panel mail feedback topic (SES publishes bounces and complaints to it)',
      enableKeyRotation: true,
    });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'SesPublishesFeedback',
        principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromThisConfigurationSet,
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Payment gateway panel mail feedback', masterKey: this.key, enforceSSL: true });
    // The destination adds the topic policy that lets SES (this configuration set, this account) publish.
    this.configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: ses.EventDestination.snsTopic(this.topic),
      events: [...MAIL_FEEDBACK_EVENTS],
    });
    this.topic.addSubscription(new subscriptions.SqsSubscription(props.queue));
  }
}
