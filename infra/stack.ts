import { sharedRouteKeys } from '../shared/http/route-group';
import { Annotations, App, CfnOutput, CfnParameter, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type AnyRoute, pathParameterNames, routeFunctions } from '../shared/http/route';
import { fallbackHandler, routeList, routes } from '../shared/http/routes';
import { tableShape } from '../shared/adapters/dynamo/table';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../shared/http/edge-origin';
import { METRICS_NAMESPACE } from '../shared/platform/metrics';
import { ApiFunction } from './cdk/api-function';
import {
  ALARMS_UNHEARD_WARNING,
  AlarmTopic,
  api5xxAlarm,
  FUNCTIONS_PER_FAILURES_ALARM,
  functionFailuresAlarm,
  notifyTopic,
  pixAnomaliesAlarm,
  sesBounceRateAlarm,
  sesComplaintRateAlarm,
  throttlesAlarm,
  webhookFailureRateAlarm,
} from './cdk/alarms';
import { MailFeedback } from './cdk/mail-feedback';
import { cardDeclinesByMerchant } from './cdk/card-testing';
import { serviceDashboard } from './cdk/dashboard';
import { ApiEdge, CLOUDFRONT_HOSTED_ZONE_ID } from './cdk/edge';
import { ApiOriginDomain } from './cdk/origin-domain';
import { routeStackOf, ServiceStacks } from './cdk/service-stacks';
import { type ApiPixSettings, defaultApiPixTokenUrl, readSettings, type StackSettings } from './cdk/settings';
import {
  CHECKOUT_UPKEEP_GRANTS,
  grantsOf,
  grantTableAccess,
  PIX_SWEEP_GRANTS,
  QUEUE_WORKER_GRANTS,
  routeGrants,
  STREAM_CONSUMER_GRANTS,
  SWEEP_GRANTS,
} from './cdk/table-access';
import { consumeQueue, consumeStream, dailyCountAlarm, runOnSchedule, scheduledErrorsAlarm, ServiceQueue, StreamFailureQueue } from './cdk/workers';
import {
  checkoutUpkeepWorker,
  pixSweepWorker,
  queueList,
  queues,
  reconcileWorker,
  streamConsumerList,
  streamForwarder,
  sweepWorker,
} from '../shared/platform/queues';

export const STACK_NAME = 'PaymentGatewayStack';
/** The edge-origin authorizer's function id (functions/edge/origin-authorizer.ts). */
export const EDGE_AUTHORIZER_ID = 'EdgeOriginAuthorizer';
/** The access log metric of requests that went around CloudFront (namespace PaymentGateway), and its alarm's threshold in 5 minutes. */
export const DIRECT_ORIGIN_CALLS_METRIC = 'DirectOriginCalls';
export const DIRECT_ORIGIN_CALLS_THRESHOLD = 5;
export const SERVICE_NAME = 'payment-gateway';

/** The deploy parameter that names the provider of new Pix charges (no default: a deploy cannot drop it by omission). */
export const PAYMENT_PROVIDER_PARAMETER = 'PaymentProvider';

/** The `PixProvider` output: which provider new Pix charges go to. */
export const PIX_PROVIDER_OUTPUT = {
  simulated: 'simulated (no PSP configured: charges are not real)',
  apipix: 'apipix',
} as const;

/** The API Pix PSP the stack was deployed with (`apiPix*` context): its secret and the functions' environment. */
export type ApiPixDeployment = {
  settings: ApiPixSettings;
  /** The operator's secret, imported by name: `{"client_secret","certificate","private_key","ca"?}`. */
  secret: secretsmanager.ISecret;
  /** PAYMENT_PROVIDER=apipix and the APIPIX_* variables (shared/platform/config.ts). */
  environment: Record<string, string>;
};

/**
 * Access log line of the default stage: who called what, the outcome and the latency. Never the
 * body, the query string or any header (the Authorization header carries the keys or the token).
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    // The caller's address the per-IP limits count, from the edge-origin authorizer ("-": refused there, a direct call).
    ip: '$context.authorizer.viewerIp',
    // The address API Gateway saw: a CloudFront edge, or a caller who went around it.
    edgeIp: '$context.identity.sourceIp',
    authorizerError: '$context.authorizer.error',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    latency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

export class PaymentGatewayStack extends Stack {
  readonly settings: StackSettings;
  readonly table: dynamodb.Table;
  readonly masterKey: secretsmanager.Secret;
  readonly providerCredentials: secretsmanager.Secret;
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** CloudFront's origin on an API Gateway custom domain (`originDomainName`), the execute-api endpoint disabled; undefined: none. */
  readonly originDomain: ApiOriginDomain | undefined;
  /** CloudFront in front of the API: its only public address (the custom domain, when `domainName` and `certificateArn` are set). */
  readonly edge: ApiEdge;
  /** Where clients reach the API: `https://<domainName>`, or the distribution's address without a custom domain. */
  readonly baseUrl: string;
  /** The edge-origin authorizer on every route (functions/edge/origin-authorizer.ts). */
  readonly originAuthorizer: HttpLambdaAuthorizer;
  /** The API Pix PSP of new Pix charges (`apiPix*` context); undefined: the simulated provider serves them. */
  readonly apiPix: ApiPixDeployment | undefined;
  /**
   * One function per route id, plus `Fallback`, each queue's `<id>Worker`, each stream consumer, the
   * sweep, the checkout upkeep, the reconciliation, and with an API Pix PSP the Pix sweep.
   */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The service's queues (each with its DLQ and alarm), by queue id. */
  readonly queues: ReadonlyMap<string, ServiceQueue>;
  /** The stream forwarder's on-failure destination (alarmed on its depth). */
  readonly streamFailures: StreamFailureQueue;
  /** The panel mail's SES configuration set and its bounce and complaint events to the mail feedback queue (issue 44). */
  readonly mailFeedback: MailFeedback;
  /** Every alarm of the stack, by a readable name; each notifies `alarmTopic` on ALARM and on OK. */
  readonly alarms: ReadonlyMap<string, cloudwatch.Alarm>;
  /** The on-call topic: the stack's own (its recipient from `alarmEmail` or the deploy's AlarmEmail parameter), or the one `alarmTopicArn` names. */
  readonly alarmTopic: sns.ITopic;
  /** The on-call dashboard. */
  readonly dashboard: cloudwatch.Dashboard;
  /** The nested stacks that hold the functions (infra/cdk/service-stacks.ts): route groups, the panel, the workers. */
  readonly serviceStacks: ServiceStacks;
  /** Each route's API Gateway route, by route id (in its function's nested stack). */
  private readonly httpRoutes = new Map<string, apigw.HttpRoute>();

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, { description: 'Payment gateway: HTTP API, one Lambda per route, one DynamoDB table', ...props });
    this.settings = readSettings(this.node);
    const { logRetention } = this.settings;
    this.serviceStacks = new ServiceStacks(this);

    this.table = this.createTable();
    this.masterKey = this.createMasterKey();
    this.providerCredentials = this.createProviderCredentials();
    this.apiPix = this.settings.apiPix ? this.importApiPix(this.settings.apiPix) : undefined;

    // Queues first: the functions that send to them get their URLs (a function's environment is fixed when it is created).
    const serviceQueues = new Map(queueList.map((def) => [def.id, new ServiceQueue(this, `${def.id}Queue`, def)]));
    this.queues = serviceQueues;
    this.streamFailures = new StreamFailureQueue(this, `${streamForwarder.id}Failures`, streamForwarder);
    const feedbackQueue = serviceQueues.get(queues.mailFeedback.id);
    if (!feedbackQueue) throw new Error('No mail feedback queue');
    this.mailFeedback = new MailFeedback(this, 'MailFeedback', { queue: feedbackQueue.queue });

    const environment: Record<string, string> = {
      TABLE_NAME: this.table.tableName,
      MASTER_KEY_SECRET_ID: this.masterKey.secretArn,
      PROVIDER_SECRET_ID: this.providerCredentials.secretArn,
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      STREAM_FAILURE_QUEUE_URL: this.streamFailures.queue.queueUrl,
    };
    if (this.settings.mailFrom) environment.MAIL_FROM = this.settings.mailFrom;
    for (const def of queueList) {
      const serviceQueue = serviceQueues.get(def.id);
      // Only SES sends to the mail feedback queue: no function needs its URL.
      if (!serviceQueue || def.sentBy !== 'service') continue;
      environment[def.urlEnv] = serviceQueue.queue.queueUrl;
      if (def.dlqUrlEnv) environment[def.dlqUrlEnv] = serviceQueue.dlq.queueUrl;
    }

    const functions = new Map<string, ApiFunction>();
    const fallback = new ApiFunction(this, 'Fallback', {
      handler: fallbackHandler,
      environment,
      logRetention,
      description: 'the $default route: JSON 404, or 405 on a known path',
    });
    functions.set('Fallback', fallback);

    const { api, stage, accessLogs } = this.createApi();
    this.api = api;
    this.stage = stage;
    const originSettings = this.settings.origin;
    this.originDomain = originSettings ? new ApiOriginDomain(this, 'OriginDomain', { settings: originSettings, api, stage }) : undefined;
    this.edge = new ApiEdge(this, 'Edge', {
      api,
      domain: this.settings.domain,
      webAclArn: this.settings.webAclArn,
      origin: originSettings && this.originDomain ? { settings: originSettings, domain: this.originDomain } : undefined,
    });
    this.baseUrl = `https://${this.settings.domain?.domainName ?? this.edge.distribution.distributionDomainName}`;
    const origin = this.createOriginAuthorizer(environment);
    this.originAuthorizer = origin.authorizer;
    functions.set(EDGE_AUTHORIZER_ID, origin.fn);
    // The $default route: whatever no route matches goes to the JSON 404/405 function.
    const defaultRoute = new apigw.HttpRoute(api, 'DefaultRoute', {
      httpApi: api,
      routeKey: apigw.HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('FallbackIntegration', fallback.fn),
      authorizer: this.originAuthorizer,
    });
    acknowledgeLambdaAuthorization(defaultRoute, undefined);

    for (const [id, group] of routeFunctions(routeList)) {
      functions.set(id, this.addRouteFunction(id, group, environment));
    }
    const directCalls = this.directCallsAlarm(accessLogs);
    this.limitAuthRoute();

    const recursionAlarms = new Map<string, cloudwatch.Alarm>();
    // The workers' functions, with their event sources and schedules, in one nested stack; their alarms stay here.
    const workers = this.serviceStacks.get('Workers');
    for (const def of queueList) {
      const isMail = def.id === queues.mail.id;
      const worker = new ApiFunction(workers, `${def.id}Worker`, {
        handler: def.handler,
        // The mail worker sends through the configuration set (issue 44).
        environment: isMail ? { ...environment, MAIL_CONFIGURATION_SET: this.mailFeedback.configurationSet.configurationSetName } : environment,
        logRetention,
        description: `the ${def.id} queue's consumer`,
        timeoutSeconds: def.workerTimeoutSeconds,
        recursiveLoop: def.recursiveLoop,
      });
      if (def.usesMasterKey) this.masterKey.grantRead(worker.role); // unseals webhook secrets, Pix keys and queued mail
      if (isMail && this.settings.mailFrom) grantMailSending(worker, this.settings.mailFrom, this.mailFeedback.configurationSetArn);
      grantTableAccess(worker.role, this.table, grantsOf(QUEUE_WORKER_GRANTS, def.id));
      const queue = serviceQueues.get(def.id);
      if (queue) recursionAlarms.set(`${def.id} recursive invocations dropped`, consumeQueue(this, worker, queue, def));
      functions.set(`${def.id}Worker`, worker);
    }

    const alarms = new Map<string, cloudwatch.Alarm>(recursionAlarms);
    const serviceSentQueues = queueList.filter((def) => def.sentBy === 'service');
    alarms.set('Direct origin calls', directCalls);
    for (const [queueId, queue] of serviceQueues) alarms.set(`${queueId} DLQ depth`, queue.alarm);
    alarms.set('stream failure queue depth', this.streamFailures.alarm);
    for (const def of streamConsumerList) {
      const consumer = new ApiFunction(workers, def.id, {
        handler: def.handler,
        environment,
        logRetention,
        description: `the table stream's ${def.id}`,
        reservedConcurrency: def.id === streamForwarder.id ? this.settings.streamForwarderConcurrency : undefined,
      });
      const consumerAlarms = consumeStream(this, consumer, this.table, def, this.streamFailures);
      alarms.set(`${def.id} errors`, consumerAlarms.errors);
      alarms.set(`${def.id} iterator age`, consumerAlarms.iteratorAge);
      grantTableAccess(consumer.role, this.table, grantsOf(STREAM_CONSUMER_GRANTS, def.id));
      Validations.of(consumer.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          "dynamodb:ListStreams (added by the stream event source) supports no resource-level permission; reading the stream itself is limited to this table's stream ARN.",
      });
      // The forwarder only sends: to the service's queues, not SES's (and Lambda sends the failure records with its role).
      for (const def of serviceSentQueues) serviceQueues.get(def.id)?.queue.grantSendMessages(consumer.role);
      functions.set(def.id, consumer);
    }
    // The sweep: every few minutes, forwards what the stream never forwarded (from the table's GSI2).
    const sweep = new ApiFunction(workers, sweepWorker.id, {
      handler: sweepWorker.handler,
      environment,
      logRetention,
      description: 'forwards outbox events and withdrawals the table stream never forwarded',
      timeoutSeconds: sweepWorker.timeoutSeconds,
    });
    grantTableAccess(sweep.role, this.table, SWEEP_GRANTS);
    for (const def of serviceSentQueues) serviceQueues.get(def.id)?.queue.grantSendMessages(sweep.role);
    runOnSchedule(workers, 'SweepSchedule', sweep, sweepWorker.everyMinutes, 'Runs the sweep of unforwarded stream items');
    alarms.set(
      'Sweep errors',
      scheduledErrorsAlarm(
        this,
        'SweepErrors',
        sweep,
        'The sweep of unforwarded stream items failed twice in a row: withdrawals or webhooks the stream lost stay unforwarded. Check its logs.',
      ),
    );
    functions.set(sweepWorker.id, sweep);
    const upkeep = this.addCheckoutUpkeep(environment);
    alarms.set(`${checkoutUpkeepWorker.id} errors`, upkeep.alarm);
    functions.set(checkoutUpkeepWorker.id, upkeep.fn);
    const reconcile = this.addReconciliation(environment);
    alarms.set(`${reconcileWorker.id} errors`, reconcile.errors);
    alarms.set('Ledger differences', reconcile.differences);
    alarms.set('Reconcile schedule failed', reconcile.schedule);
    functions.set(reconcileWorker.id, reconcile.fn);
    if (this.apiPix) {
      const pixSweep = this.addPixSweep(environment, this.apiPix);
      alarms.set(`${pixSweepWorker.id} errors`, pixSweep.alarm);
      functions.set(pixSweepWorker.id, pixSweep.fn);
    }
    this.functions = functions;
    this.addServiceAlarms(alarms);
    this.alarms = alarms;
    const recipient = this.settings.alarmRecipient;
    // An existing on-call topic (alarmTopicArn) replaces the stack's own; else the stack's topic, its recipient from the context or the deploy.
    this.alarmTopic =
      recipient.kind === 'topic' ? sns.Topic.fromTopicArn(this, 'OnCallTopic', recipient.topicArn) : new AlarmTopic(this, 'Alarms', recipient).topic;
    notifyTopic(alarms.values(), this.alarmTopic);
    if (recipient.kind === 'none') {
      Annotations.of(this).addWarningV2('payment-gateway:alarms-without-recipient', ALARMS_UNHEARD_WARNING.replace('AlarmEmail=none', 'alarmEmail=none'));
    }
    this.dashboard = this.createDashboard();

    new CfnOutput(this, 'ApiUrl', {
      value: this.baseUrl,
      description: 'Base URL of the API, through CloudFront (the custom domain when one is set; the operator CLI reads it)',
    });
    if (this.settings.domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: this.edge.distribution.distributionDomainName,
        description: `Point ${this.settings.domain.domainName} here (CNAME, or a Route 53 alias with DomainHostedZoneId)`,
      });
      new CfnOutput(this, 'DomainHostedZoneId', { value: CLOUDFRONT_HOSTED_ZONE_ID });
    }
    if (this.originDomain && originSettings && !this.originDomain.record) {
      new CfnOutput(this, 'OriginDomainTarget', {
        value: this.originDomain.domainName.regionalDomainName,
        description: `Point ${originSettings.domainName} here (CloudFront's origin: CNAME, or a Route 53 alias with OriginDomainHostedZoneId)`,
      });
      new CfnOutput(this, 'OriginDomainHostedZoneId', { value: this.originDomain.domainName.regionalHostedZoneId });
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description: 'Every alarm notifies this topic (ALARM and OK): subscribe on-call to it',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    // The operator CLI's `stream redrive` forwards to these.
    new CfnOutput(this, 'PayoutQueueUrl', { value: serviceQueues.get(queues.payouts.id)?.queue.queueUrl ?? '' });
    new CfnOutput(this, 'WebhookQueueUrl', { value: serviceQueues.get(queues.webhooks.id)?.queue.queueUrl ?? '' });
    new CfnOutput(this, 'ReconcileQueueUrl', { value: serviceQueues.get(queues.reconcile.id)?.queue.queueUrl ?? '' });
    new CfnOutput(this, 'MailQueueUrl', { value: serviceQueues.get(queues.mail.id)?.queue.queueUrl ?? '' });
    new CfnOutput(this, 'MailFeedbackQueueUrl', { value: serviceQueues.get(queues.mailFeedback.id)?.queue.queueUrl ?? '' });
    new CfnOutput(this, 'MasterKeySecretArn', { value: this.masterKey.secretArn });
    new CfnOutput(this, 'ProviderSecretArn', {
      value: this.providerCredentials.secretArn,
      description: 'Payment provider credentials (notification signing secrets)',
    });
    new CfnOutput(this, 'StreamFailureQueueUrl', {
      value: this.streamFailures.queue.queueUrl,
      description: 'Failure records of the table stream forwarder (npm run admin -- stream redrive)',
    });
    this.addPixProviderOutputs();
  }

  /**
   * Which provider new Pix charges go to, and with an API Pix PSP its settings: the operator CLI reads
   * them with --stack (`provider register-webhook`, `provider reconcile`).
   */
  private addPixProviderOutputs(): void {
    // The provider is an explicit deploy setting (issue 25): a parameter with no default whose only
    // allowed value is the provider this template was synthesized for. The first deploy names it
    // (--parameters PaymentProvider=simulated|apipix); later deploys reuse the previous value, so one
    // that lost the apiPix* context (a template for "simulated") is refused by CloudFormation before
    // anything changes, instead of moving new Pix charges back to the simulated provider.
    const provider = this.apiPix ? 'apipix' : 'simulated';
    const parameter = new CfnParameter(this, PAYMENT_PROVIDER_PARAMETER, {
      type: 'String',
      allowedValues: [provider],
      description: `The provider of new Pix charges this template was synthesized for: ${provider}. Name it on the first deploy; a later deploy synthesized for another provider is refused unless it names that one (switching is deliberate).`,
      constraintDescription: `this template serves Pix charges with ${provider}; a deploy that meant the other provider lost its context (apiPix* for apipix)`,
    });
    new CfnOutput(this, 'DeployedPaymentProvider', {
      value: parameter.valueAsString,
      description: 'The provider of new Pix charges, as the deploy named it (the PaymentProvider parameter)',
    });
    new CfnOutput(this, 'PixProvider', {
      value: this.apiPix ? PIX_PROVIDER_OUTPUT.apipix : PIX_PROVIDER_OUTPUT.simulated,
      description: 'The provider of new Pix charges (card and boleto: the simulated provider); apipix with the apiPix* context',
    });
    if (!this.apiPix) return;
    const { settings, secret } = this.apiPix;
    new CfnOutput(this, 'ApiPixBaseUrl', { value: settings.baseUrl, description: "The API Pix PSP's API base URL" });
    new CfnOutput(this, 'ApiPixTokenUrl', {
      value: settings.tokenUrl ?? defaultApiPixTokenUrl(settings.baseUrl),
      description: "The PSP's OAuth2 token endpoint",
    });
    new CfnOutput(this, 'ApiPixClientId', { value: settings.clientId, description: "The PSP's OAuth2 client id" });
    new CfnOutput(this, 'ApiPixPixKey', { value: settings.pixKey, description: 'The Pix key (chave) charges are paid to' });
    new CfnOutput(this, 'ApiPixSecretArn', {
      value: secret.secretArn,
      description: 'The PSP credentials secret (client_secret, certificate, private_key, ca), by its ARN without the random suffix',
    });
  }

  /**
   * The API Pix PSP of the `apiPix*` context: the secret the operator created (imported by name, never
   * created or changed by the stack) and the environment of the functions that call the PSP. Its
   * readers get GetSecretValue and DescribeSecret on `…:secret:<name>-??????` (an imported secret's ARN
   * is known up to its six random characters; each `?` matches one character, so that one secret).
   */
  private importApiPix(settings: ApiPixSettings): ApiPixDeployment {
    const secret = secretsmanager.Secret.fromSecretNameV2(this, 'ApiPixCredentials', settings.secretName);
    const environment: Record<string, string> = {
      PAYMENT_PROVIDER: 'apipix',
      APIPIX_BASE_URL: settings.baseUrl,
      ...(settings.tokenUrl ? { APIPIX_TOKEN_URL: settings.tokenUrl } : {}),
      APIPIX_CLIENT_ID: settings.clientId,
      APIPIX_PIX_KEY: settings.pixKey,
      // The ARN without the six random characters: Secrets Manager finds the secret by it (the name cannot end like a suffix).
      APIPIX_SECRET_ID: secret.secretArn,
    };
    return { settings, secret, environment };
  }

  /**
   * The Pix sweep, with an API Pix PSP only: every few minutes, reads back from the PSP (GET /cob over
   * mutual TLS, outbound HTTPS: the functions are not in a VPC) the PENDING Pix charges older than
   * APIPIX_SWEEP_AFTER_MINUTES whose callback never came, and applies what the PSP holds as the
   * callback route would (the same table access). No master key, no queue.
   */
  private addPixSweep(environment: Record<string, string>, apiPix: ApiPixDeployment): { fn: ApiFunction; alarm: cloudwatch.Alarm } {
    const workers = this.serviceStacks.get('Workers');
    const fn = new ApiFunction(workers, pixSweepWorker.id, {
      handler: pixSweepWorker.handler,
      environment: { ...environment, ...apiPix.environment },
      logRetention: this.settings.logRetention,
      description: 'reads back from the API Pix PSP the pending Pix charges whose callback never came',
      timeoutSeconds: pixSweepWorker.timeoutSeconds,
    });
    grantTableAccess(fn.role, this.table, PIX_SWEEP_GRANTS);
    apiPix.secret.grantRead(fn.role);
    runOnSchedule(workers, 'PixSweepSchedule', fn, pixSweepWorker.everyMinutes, 'Runs the Pix sweep (reads back API Pix charges whose callback never came)');
    const alarm = scheduledErrorsAlarm(
      this,
      'PixSweepErrors',
      fn,
      'The Pix sweep failed in two 10-minute periods in a row: Pix charges whose callback never came stay PENDING (a payer may have paid, the merchant is not credited). The PSP is unreachable or refuses the credentials (secret, certificate, client id), or a charge keeps failing: check its logs; npm run admin -- provider reconcile --txid T --stack NAME reads one charge back by hand.',
    );
    return { fn, alarm };
  }

  private createTable(): dynamodb.Table {
    const string = dynamodb.AttributeType.STRING;
    const table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: tableShape.partitionKey, type: string },
      sortKey: { name: tableShape.sortKey, type: string },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableShape.timeToLiveAttribute,
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableShape.globalSecondaryIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: string },
        sortKey: { name: index.sortKey, type: string },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    return table;
  }

  private createMasterKey(): secretsmanager.Secret {
    return this.retainedSecret(
      'MasterKey',
      'Master key material of the payment gateway: encrypts stored webhook secrets and signs Bearer tokens',
      'masterKey',
      'Every purpose key (token signing, sealed webhook secrets and taxpayer documents, stored idempotent answers, boleto links) is derived from this secret: an automatic rotation would revoke every token, break issued boleto links and leave sealed values unreadable. Rotation is a planned operator procedure (docs/security.md, Key rotation), not a Secrets Manager rotation function.',
    );
  }

  /** A generated secret `{"<key>": "<64 characters>"}`, kept when the stack goes (losing it makes stored encrypted values unreadable). */
  private retainedSecret(id: string, description: string, generateStringKey: string, rotationReason: string): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, id, {
      description,
      generateSecretString: { secretStringTemplate: '{}', generateStringKey, passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: rotationReason });
    return secret;
  }

  private createApi(): { api: apigw.HttpApi; stage: apigw.HttpStage; accessLogs: logs.LogGroup } {
    const api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: SERVICE_NAME,
      description: 'Payment gateway API (routes from shared/http/routes.ts)',
      createDefaultStage: false,
      // Without an origin domain the execute-api address is CloudFront's origin; a request sent there
      // directly is refused by the edge-origin authorizer (401 before anything runs without the secret)
      // and by each function (403), but counted against the stage throttle first. With one (issue 44,
      // item 8) the execute-api endpoint answers API Gateway's 403 without reaching the stage.
      disableExecuteApiEndpoint: this.settings.origin !== undefined,
    });
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: this.settings.logRetention });
    const { throttle } = this.settings;
    const stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: ACCESS_LOG_FORMAT,
      },
      // Every route, unless a route setting says otherwise: beyond it API Gateway answers 429 without invoking anything.
      throttle: { rateLimit: throttle.rate, burstLimit: throttle.burst },
      // Per-route requests, 4xx, 5xx and latency for the dashboard (CloudWatch custom metrics, billed per route).
      detailedMetricsEnabled: true,
    });
    return { api, stage, accessLogs };
  }

  /**
   * The edge-origin authorizer (functions/edge/origin-authorizer.ts) on every route, the $default
   * route included: its identity sources are the origin secret and the viewer address CloudFront adds,
   * so a request without them is refused (401) before any function runs; a forged secret runs only the
   * authorizer, whose answer is cached 5 minutes per (secret, address). API Gateway throttles before it
   * authorizes: direct calls still spend the stage's rate, unless an origin domain closes the
   * execute-api endpoint (and its mTLS the domain itself: docs/decisions.md, "Calls around the edge" and issue 44).
   */
  private createOriginAuthorizer(environment: Record<string, string>): { fn: ApiFunction; authorizer: HttpLambdaAuthorizer } {
    const fn = new ApiFunction(this, EDGE_AUTHORIZER_ID, {
      handler: 'functions/edge/origin-authorizer.ts',
      environment: { ...environment, EDGE_ORIGIN_SECRET_ID: this.edge.originSecret.secretArn },
      logRetention: this.settings.logRetention,
      description: 'the edge-origin authorizer: only requests that came through CloudFront reach a route',
    });
    this.edge.originSecret.grantRead(fn.role);
    const authorizer = new HttpLambdaAuthorizer('EdgeOrigin', fn.fn, {
      authorizerName: 'edge-origin',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${EDGE_ORIGIN_HEADER}`, `$request.header.${EDGE_CLIENT_IP_HEADER}`],
      resultsCacheTtl: Duration.minutes(5),
    });
    return { fn, authorizer };
  }

  /**
   * Calls that went around CloudFront: the access log's `ip` is "-" (the authorizer refused them, or
   * never ran for want of its identity sources); counted as DirectOriginCalls, alarmed.
   */
  private directCallsAlarm(accessLogs: logs.LogGroup): cloudwatch.Alarm {
    const metric = accessLogs
      .addMetricFilter('DirectOriginCalls', {
        filterPattern: logs.FilterPattern.stringValue('$.ip', '=', '-'),
        metricNamespace: METRICS_NAMESPACE,
        metricName: DIRECT_ORIGIN_CALLS_METRIC,
        metricValue: '1',
        defaultValue: 0,
      })
      .metric({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM });
    return new cloudwatch.Alarm(this, 'DirectOriginCallsAlarm', {
      alarmDescription: this.settings.origin
        ? `${DIRECT_ORIGIN_CALLS_THRESHOLD} or more requests in 5 minutes reached the origin domain ${this.settings.origin.domainName} without going through CloudFront: refused (401/403) before any route ran, but they spend the stage's throttle. Look at the access log lines with ip "-" (edgeIp is the caller); AWS WAF on CloudFront cannot see them: ${this.settings.origin.mtls ? "the origin requires CloudFront's client certificate, so check whether its key or the truststore leaked" : "require CloudFront's client certificate (originClientCertificateArn, originTruststoreUri) or move the origin to a new name"} (docs/decisions.md).`
        : `${DIRECT_ORIGIN_CALLS_THRESHOLD} or more requests in 5 minutes reached API Gateway's execute-api address without going through CloudFront: refused (401/403) before any route ran, but they spend the stage's throttle. Look at the access log lines with ip "-" (edgeIp is the caller); AWS WAF on CloudFront cannot see them: give the API an origin domain with the execute-api endpoint disabled (originDomainName, README "The edge").`,
      metric,
      threshold: DIRECT_ORIGIN_CALLS_THRESHOLD,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /** POST /api/auth gets a tighter limit than the stage default: a route setting of the $default stage. */
  private limitAuthRoute(): void {
    const routeKey = `${routes.authToken.method} ${routes.authToken.path}`;
    const { authThrottle } = this.settings;
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = {
      [routeKey]: { ThrottlingRateLimit: authThrottle.rate, ThrottlingBurstLimit: authThrottle.burst },
    };
    // A route setting names an existing route: the stage is created (or updated) after it.
    const authRoute = this.httpRoutes.get(routes.authToken.id);
    if (!authRoute) throw new Error(`No route ${routes.authToken.id}Route to limit`);
    this.stage.node.addDependency(authRoute);
  }

  /** The payment providers' credentials: `{"<provider>": "<notification signing secret>"}`. */
  private createProviderCredentials(): secretsmanager.Secret {
    return this.retainedSecret(
      'ProviderCredentials',
      'Payment provider credentials of the payment gateway: the secret each provider signs its notifications with',
      'simulated',
      'Provider credentials are issued by the provider and rotated when the provider rotates them: the operator updates the secret (docs/security.md, Key rotation); there is no Secrets Manager rotation function that could issue new ones.',
    );
  }

  /**
   * The checkout upkeep, every few minutes: abandons checkouts past CHECKOUT_TTL and settles UNKNOWN
   * card attempts with the provider. It runs with the API functions' environment and base URL (the
   * same provider settings and the same CHECKOUT_TTL and PROVIDER_TIMEOUT_MS, both the code's
   * defaults), reads the master key (a confirmed card payment's invoice seals the payer's data) and
   * sends to no queue (its order and invoice events reach the webhooks through the table stream).
   */
  private addCheckoutUpkeep(environment: Record<string, string>): { fn: ApiFunction; alarm: cloudwatch.Alarm } {
    const workers = this.serviceStacks.get('Workers');
    const fn = new ApiFunction(workers, checkoutUpkeepWorker.id, {
      handler: checkoutUpkeepWorker.handler,
      // The rails upkeep removes BolePix's due-date Pix charges at the PSP: its settings and secret when one is deployed.
      environment: { ...environment, PUBLIC_BASE_URL: this.baseUrl, ...this.apiPix?.environment },
      logRetention: this.settings.logRetention,
      description: "abandons hosted checkouts past CHECKOUT_TTL, settles card attempts whose answer was lost, keeps the boletos' rails",
      timeoutSeconds: checkoutUpkeepWorker.timeoutSeconds,
    });
    grantTableAccess(fn.role, this.table, CHECKOUT_UPKEEP_GRANTS);
    this.masterKey.grantRead(fn.role);
    this.apiPix?.secret.grantRead(fn.role);
    runOnSchedule(
      workers,
      'CheckoutUpkeepSchedule',
      fn,
      checkoutUpkeepWorker.everyMinutes,
      'Runs the checkout upkeep (abandons expired checkouts, settles UNKNOWN ones)',
    );
    const alarm = scheduledErrorsAlarm(
      this,
      'CheckoutUpkeepErrors',
      fn,
      'The checkout upkeep failed in two 10-minute periods in a row: UNKNOWN card payments stay unsettled (payers wait, or a charge goes unrecorded) and expired checkouts stay open. Check its logs.',
    );
    return { fn, alarm };
  }

  /**
   * The daily reconciliation's start: sends one message per partition of the account index to the
   * reconcile queue, whose consumer (the `reconcileWorker`, built with the other queue consumers)
   * reconciles page after page, each bounded, and publishes LedgerDifferences. The start reads no table:
   * it only sends. Alarmed on its errors, on a failed delivery of its schedule, and on any difference;
   * a day without data is not a difference (a fresh deploy is not in ALARM before its first run).
   */
  private addReconciliation(environment: Record<string, string>): {
    fn: ApiFunction;
    errors: cloudwatch.Alarm;
    differences: cloudwatch.Alarm;
    schedule: cloudwatch.Alarm;
  } {
    const workers = this.serviceStacks.get('Workers');
    const fn = new ApiFunction(workers, reconcileWorker.id, {
      handler: reconcileWorker.handler,
      environment,
      logRetention: this.settings.logRetention,
      description: "starts the daily reconciliation of every account's balance with its ledger (one message per partition of the account index)",
      timeoutSeconds: reconcileWorker.timeoutSeconds,
    });
    this.queues.get(queues.reconcile.id)?.queue.grantSendMessages(fn.role);
    const rule = runOnSchedule(
      workers,
      'ReconcileSchedule',
      fn,
      reconcileWorker.everyMinutes,
      "Runs the daily reconciliation of every account's balance with its ledger",
    );
    const errors = scheduledErrorsAlarm(
      this,
      'ReconcileErrors',
      fn,
      "The daily ledger reconciliation did not start (Lambda retries a failed run twice): today's balances are unchecked until it runs. Check its logs, then run npm run admin -- account reconcile --all.",
      // Once a day: no next run fixes a failure, and the retries of a quick failure fall within one period.
      { period: Duration.hours(1), periodsInARow: 1 },
    );
    const schedule = new cloudwatch.Alarm(this, 'ReconcileScheduleFailed', {
      alarmDescription:
        "EventBridge could not invoke the daily reconciliation's start (FailedInvocations): no reconciliation ran today. Check the rule and the function's permissions, then run npm run admin -- account reconcile --all.",
      metric: new cloudwatch.Metric({
        namespace: 'AWS/Events',
        metricName: 'FailedInvocations',
        dimensionsMap: { RuleName: rule.ruleName },
        period: Duration.hours(1),
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const differences = dailyCountAlarm(
      this,
      'LedgerDifferences',
      reconcileWorker.metric,
      "An account's balance differs from the sum of its ledger entries (the reconciliation logs each one as 'ledger difference'). Run npm run admin -- account reconcile --all: money may have moved without an entry, or an entry without its movement.",
    );
    return { fn, errors, differences, schedule };
  }

  /**
   * The alarms every function and the API get: the API's 5xx rate; per function, its throttles when
   * its errors already have their own alarm (stream consumers and scheduled workers), else its
   * errors and throttles together, five functions to an alarm (it fires on any one of them).
   */
  private addServiceAlarms(alarms: Map<string, cloudwatch.Alarm>): void {
    const scope = new Construct(this, 'ServiceAlarms');
    alarms.set('API 5xx rate', api5xxAlarm(scope, 'Api5xxRate', this.api));
    alarms.set('Webhook failure rate', webhookFailureRateAlarm(scope, 'WebhookFailureRate'));
    if (this.apiPix) alarms.set('Pix anomalies', pixAnomaliesAlarm(scope, 'PixAnomalies'));
    // The panel mail's reputation (issue 44): AWS pauses an account's sending above 10 % bounces or 0.5 % complaints.
    alarms.set('SES bounce rate', sesBounceRateAlarm(scope, 'SesBounceRate'));
    alarms.set('SES complaint rate', sesComplaintRateAlarm(scope, 'SesComplaintRate'));
    const cardRoutes = [routes.checkoutCard.id, routes.createCard.id].map((id) => this.functions.get(id)?.logGroup).filter((group) => group !== undefined);
    alarms.set('Card declines by merchant', cardDeclinesByMerchant(scope, 'CardDeclinesByMerchant', cardRoutes).alarm);
    const ownErrorsAlarm = new Set([...streamConsumerList.map((c) => c.id), sweepWorker.id, checkoutUpkeepWorker.id, reconcileWorker.id, pixSweepWorker.id]);
    const others: [string, ApiFunction][] = [];
    for (const [id, fn] of this.functions) {
      if (ownErrorsAlarm.has(id)) alarms.set(`${id} throttles`, throttlesAlarm(scope, `${id}Throttles`, id, fn));
      else others.push([id, fn]);
    }
    for (const group of chunks(others, FUNCTIONS_PER_FAILURES_ALARM)) {
      const ids = group.map(([id]) => id);
      alarms.set(`${ids.join(', ')} errors and throttles`, functionFailuresAlarm(scope, `${ids[0]}GroupFailures`, new Map(group)));
    }
  }

  private createDashboard(): cloudwatch.Dashboard {
    const routeIds = new Set([...routeFunctions(routeList).keys(), 'Fallback']);
    const pick = (keep: (id: string) => boolean) => new Map([...this.functions].filter(([id]) => keep(id)));
    const queueMap = new Map<string, sqs.IQueue>([...this.queues].map(([id, q]) => [id, q.queue]));
    const dlqMap = new Map<string, sqs.IQueue>([...this.queues].map(([id, q]) => [`${id} DLQ`, q.dlq]));
    dlqMap.set('stream failures', this.streamFailures.queue);
    return serviceDashboard(this, 'Dashboard', this.stackName, {
      api: this.api,
      routeFunctions: pick((id) => routeIds.has(id)),
      workerFunctions: pick((id) => !routeIds.has(id)),
      streamConsumers: pick((id) => streamConsumerList.some((c) => c.id === id)),
      table: this.table,
      queues: queueMap,
      deadLetterQueues: dlqMap,
      businessMetrics: [reconcileWorker.metric],
    });
  }

  /** The function of one route, or of the routes sharing it (`fn`), with each route's API Gateway route. */
  private addRouteFunction(id: string, group: readonly AnyRoute[], environment: Record<string, string>): ApiFunction {
    const [first] = group;
    if (!first) throw new Error(`Function ${id} serves no route`);
    // Only the routes that create or read back Pix charges talk to the PSP; the others keep the simulated default.
    const apiPix = group.some((route) => route.usesPixProvider) ? this.apiPix : undefined;
    // The function, its routes, integrations and permissions in the nested stack of its route group.
    const scope = this.serviceStacks.get(routeStackOf(group));
    const fn = new ApiFunction(scope, id, {
      handler: first.handler,
      // The service's own base URL: boleto page links and the simulated PSP's locations.
      environment: { ...environment, PUBLIC_BASE_URL: this.baseUrl, EDGE_ORIGIN_SECRET_ID: this.edge.originSecret.secretArn, ...apiPix?.environment },
      logRetention: this.settings.logRetention,
      description: group.length === 1 ? `${first.method} ${first.path} (${first.id})` : `${id}: ${group.length} routes under ${commonPathPrefix(group)}`,
      // Payment confirmations keep their capacity whatever else runs (and cannot take all of it).
      reservedConcurrency: id === routes.providerNotification.id ? this.settings.providerNotificationConcurrency : undefined,
    });
    grantTableAccess(
      fn.role,
      this.table,
      group.flatMap((route) => routeGrants(route)),
    );
    if (group.some((route) => route.auth !== 'none' || route.usesMasterKey)) this.masterKey.grantRead(fn.role);
    if (group.some((route) => route.usesProviderCredentials)) this.providerCredentials.grantRead(fn.role);
    if (apiPix) apiPix.secret.grantRead(fn.role);
    // Every route checks that its request came through CloudFront (shared/http/edge-origin.ts).
    this.edge.originSecret.grantRead(fn.role);

    // A shared function has one integration and one API-scoped permission for all its routes (a few
    // resources per function, not three per page: the stack stays well inside CloudFormation's 500).
    const shared = group.length > 1 ? new HttpLambdaIntegration(`${id}Integration`, fn.fn, { scopePermissionToRoute: false }) : undefined;
    // A shared function's path served with several methods (a page and its form) is one `ANY` route.
    for (const key of shared ? sharedRouteKeys(group) : group.map((route) => ({ method: route.method, path: route.path, routes: [route] }))) {
      const [route] = key.routes;
      if (!route) continue;
      const httpRoute = new apigw.HttpRoute(scope, `${route.id}Route`, {
        httpApi: this.api,
        routeKey: apigw.HttpRouteKey.with(key.path, apigw.HttpMethod[key.method]),
        integration: shared ?? new HttpLambdaIntegration(`${route.id}Integration`, fn.fn),
        authorizer: this.originAuthorizer,
      });
      acknowledgeLambdaAuthorization(httpRoute, route);
      this.httpRoutes.set(route.id, httpRoute);
    }
    return fn;
  }
}

/** The path prefix the routes of a shared function have in common (for its description). */
function commonPathPrefix(group: readonly AnyRoute[]): string {
  const paths = group.map((route) => route.path.split('/'));
  const common: string[] = [];
  for (let i = 0; paths.every((parts) => parts[i] !== undefined && parts[i] === paths[0]?.[i]); i += 1) common.push(paths[0]?.[i] ?? '');
  return common.join('/') || '/';
}

/** Why a route has no API Gateway authorizer: what authorizes it instead, read from its row. */
export function authorizationReason(route: AnyRoute | undefined): string {
  if (route === undefined) return 'Public on purpose: the $default route only answers a JSON 404 or 405 and touches no data.';
  if (route.auth === 'basic') {
    return 'Authorization is done in the Lambda: it checks the Basic public:secret key pair against the stored secret-key hash, rate-limited per client IP (10 calls per minute).';
  }
  if (route.auth === 'bearer') {
    return 'Authorization is done in the Lambda: it verifies the HMAC-signed Bearer token and checks it against the account key version on every call, so rotated keys revoke tokens at once.';
  }
  if (route.usesProviderCredentials) {
    return "Called by the payment provider, not by merchants: the Lambda verifies the provider's HMAC signature (secret in Secrets Manager) before anything changes, and answers 401 otherwise.";
  }
  if (route.id === routes.providerPixCallback.id) {
    return "Called by the API Pix PSP, not by merchants (the standard's callbacks carry no signature): the path token registered with the PSP is an HMAC of the provider's name under a key derived from the master key (a wrong one: 401, counted per client IP), and the callback is only a hint: each charge it names is read back from the PSP over mutual TLS and only what the PSP answers is applied.";
  }
  if (route.id === routes.checkoutEntry.id) {
    return "The hosted checkout's entry form, posted from merchants' pages by payers' browsers (no credentials can be kept there): the Lambda creates a pending checkout only for a known public key of an enabled account, checks the form's HMAC signature where the account requires one, and counts calls per client IP; it answers a redirect to that checkout's page or an error page, never account data.";
  }
  if (route.usesMasterKey && pathParameterNames(route.path).includes('token')) {
    return "A payer's link (a boleto or checkout page, its card form, its status): the Lambda answers only when the link's token is the HMAC of the reference under a key derived from the master key (unguessable), and a 404 otherwise.";
  }
  if (route.tag === 'Merchant panel') {
    return "The merchant panel's pages (issue 27): the Lambda authenticates each request itself with the panel's server-side session (a __Host- cookie holding a 256-bit id, only its SHA-256 stored, signed in with a password and an authenticator code), checks a CSRF token on every form, and answers the sign-in page or a redirect to it otherwise; sign-in failures are limited per e-mail and per address.";
  }
  if (route.access === 'none') return 'Public on purpose: this route serves no account data (the OpenAPI document of the API).';
  throw new Error(`Route ${route.id} has no authorization and no reason for it: give it auth, or state why it may be public`);
}

/** API Gateway authorizers are not used: each route's Lambda authorizes the call itself. */
function acknowledgeLambdaAuthorization(httpRoute: apigw.HttpRoute, route: AnyRoute | undefined): void {
  Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: authorizationReason(route) });
}

export interface BuildAppOptions {
  /** App context, e.g. { 'aws:cdk:bundling-stacks': [] } to skip bundling in tests. */
  context?: Record<string, unknown>;
  /** Register cdk-nag's AwsSolutions checks as a synthesis validation plugin (default true). */
  nag?: boolean;
  outdir?: string;
}

/** Builds the app and the stack without synthesizing anything. */
export function buildApp(options: BuildAppOptions = {}): { app: App; stack: PaymentGatewayStack } {
  const app = new App({ context: options.context, ...(options.outdir ? { outdir: options.outdir } : {}) });
  const stack = new PaymentGatewayStack(app, STACK_NAME);
  const nagContext: unknown = app.node.tryGetContext('nag');
  if ((options.nag ?? true) && nagContext !== false && nagContext !== 'false') {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }));
  }
  return { app, stack };
}

/** `items` in runs of at most `size`, in order. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let i = 0; i < items.length; i += size) runs.push(items.slice(i, i + size));
  return runs;
}

/**
 * The mail worker may send through SES (v2 SendEmail) from the configured address only: the identity of
 * the address and of its domain (either may be the one verified), and `ses:FromAddress` that address;
 * and the configuration set it names (issue 44: AWS authorizes a send on the configuration set too).
 */
function grantMailSending(worker: ApiFunction, from: string, configurationSetArn: string): void {
  const { partition, region, account } = Stack.of(worker.fn);
  const domain = from.slice(from.lastIndexOf('@') + 1);
  worker.fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [
        `arn:${partition}:ses:${region}:${account}:identity/${from}`,
        `arn:${partition}:ses:${region}:${account}:identity/${domain}`,
        configurationSetArn,
      ],
      conditions: { StringEquals: { 'ses:FromAddress': from } },
    }),
  );
}
