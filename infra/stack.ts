import { App, CfnOutput, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { AnyRoute, AuthKind } from '../shared/http/route';
import { fallbackHandler, routeList } from '../shared/routes';
import { tableShape } from '../shared/storage/table';
import { ApiFunction, LOG_RETENTION } from './cdk/api-function';
import { grantTableAccess } from './cdk/table-access';
import { consumeQueue, consumeStream, ServiceQueue } from './cdk/workers';
import { queueList, queues, streamConsumerList } from '../shared/queues';

export const STACK_NAME = 'PaymentGatewayStack';
export const SERVICE_NAME = 'payment-gateway';

/**
 * Access log line of the default stage: who called what, the outcome and the latency. Never the
 * body, the query string or any header (the Authorization header carries the keys or the token).
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
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
  readonly table: dynamodb.Table;
  readonly masterKey: secretsmanager.Secret;
  readonly providerCredentials: secretsmanager.Secret;
  readonly api: apigw.HttpApi;
  /** One function per route id, plus `Fallback`, each queue's `<id>Worker` and each stream consumer. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The service's queues (each with its DLQ and alarm), by queue id. */
  readonly queues: ReadonlyMap<string, ServiceQueue>;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, { description: 'Payment gateway: HTTP API, one Lambda per route, one DynamoDB table', ...props });

    this.table = this.createTable();
    this.masterKey = this.createMasterKey();
    this.providerCredentials = this.createProviderCredentials();

    const environment: Record<string, string> = {
      TABLE_NAME: this.table.tableName,
      MASTER_KEY_SECRET_ID: this.masterKey.secretArn,
      PROVIDER_SECRET_ID: this.providerCredentials.secretArn,
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_LOG_LEVEL: 'INFO',
    };

    const functions = new Map<string, ApiFunction>();
    const fallback = new ApiFunction(this, 'Fallback', {
      handler: fallbackHandler,
      environment,
      description: 'the $default route: JSON 404, or 405 on a known path',
    });
    functions.set('Fallback', fallback);

    this.api = this.createApi(fallback);

    // Queues first: the functions that send to them get their URLs.
    const serviceQueues = new Map(queueList.map((def) => [def.id, new ServiceQueue(this, `${def.id}Queue`, def)]));
    for (const def of queueList) environment[def.urlEnv] = serviceQueues.get(def.id)?.queue.queueUrl ?? '';
    this.queues = serviceQueues;

    for (const route of routeList) {
      functions.set(route.id, this.addRoute(route, environment));
    }
    for (const def of queueList) {
      const worker = new ApiFunction(this, `${def.id}Worker`, {
        handler: def.handler,
        environment,
        description: `the ${def.id} queue's consumer`,
        timeoutSeconds: def.workerTimeoutSeconds,
      });
      if (def.id === queues.webhooks.id) this.masterKey.grantRead(worker.role); // unseals the webhook secrets
      grantTableAccess(worker.role, this.table, 'write');
      this.acknowledgeIndexWildcard(worker);
      const queue = serviceQueues.get(def.id);
      if (queue) consumeQueue(worker, queue, def);
      functions.set(`${def.id}Worker`, worker);
    }
    for (const def of streamConsumerList) {
      const consumer = new ApiFunction(this, def.id, { handler: def.handler, environment, description: `the table stream's ${def.id}` });
      consumeStream(this, consumer, this.table, def);
      Validations.of(consumer.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          "dynamodb:ListStreams (added by the stream event source) supports no resource-level permission; reading the stream itself is limited to this table's stream ARN.",
      });
      // The forwarder only sends: to the payout and webhook queues.
      for (const queue of serviceQueues.values()) queue.queue.grantSendMessages(consumer.role);
      functions.set(def.id, consumer);
    }
    this.functions = functions;

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'MasterKeySecretArn', { value: this.masterKey.secretArn });
    new CfnOutput(this, 'ProviderSecretArn', {
      value: this.providerCredentials.secretArn,
      description: 'Payment provider credentials (notification signing secrets)',
    });
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
      'Rotating the master key requires re-encrypting every stored webhook secret and re-issuing tokens; it is an operator procedure documented in docs/, not an automatic Secrets Manager rotation.',
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

  private createApi(fallback: ApiFunction): apigw.HttpApi {
    const api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: SERVICE_NAME,
      description: 'Payment gateway API (routes from shared/routes.ts)',
      createDefaultStage: false,
    });
    // The $default route: whatever no route matches goes to the JSON 404/405 function.
    const defaultRoute = new apigw.HttpRoute(api, 'DefaultRoute', {
      httpApi: api,
      routeKey: apigw.HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('FallbackIntegration', fallback.fn),
    });
    acknowledgeLambdaAuthorization(defaultRoute, 'none');
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: LOG_RETENTION });
    new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: ACCESS_LOG_FORMAT,
      },
    });
    return api;
  }

  /** The payment providers' credentials: `{"<provider>": "<notification signing secret>"}`. */
  private createProviderCredentials(): secretsmanager.Secret {
    return this.retainedSecret(
      'ProviderCredentials',
      'Payment provider credentials of the payment gateway: the secret each provider signs its notifications with',
      'simulated',
      'Provider credentials are issued by the provider; they are rotated when the provider rotates them (an operator procedure in docs/), not by a Secrets Manager rotation function.',
    );
  }

  private addRoute(route: AnyRoute, environment: Record<string, string>): ApiFunction {
    const fn = new ApiFunction(this, route.id, {
      handler: route.handler,
      // The service's own base URL: boleto page links and the simulated PSP's locations.
      environment: { ...environment, PUBLIC_BASE_URL: this.api.apiEndpoint },
      description: `${route.method} ${route.path} (${route.id})`,
    });
    grantTableAccess(fn.role, this.table, route.access);
    if (route.auth !== 'none' || route.usesMasterKey) this.masterKey.grantRead(fn.role);
    if (route.usesProviderCredentials) this.providerCredentials.grantRead(fn.role);
    if (route.access !== 'none') this.acknowledgeIndexWildcard(fn);

    const httpRoute = new apigw.HttpRoute(this.api, `${route.id}Route`, {
      httpApi: this.api,
      routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
      integration: new HttpLambdaIntegration(`${route.id}Integration`, fn.fn),
    });
    acknowledgeLambdaAuthorization(httpRoute, route.auth);
    return fn;
  }

  /** Reads on the table's indexes need the `<table ARN>/index/*` resource. */
  private acknowledgeIndexWildcard(fn: ApiFunction): void {
    const tableLogicalId = this.getLogicalId(this.table.node.defaultChild as dynamodb.CfnTable);
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${tableLogicalId}.Arn>/index/*]`,
      reason:
        "The only wildcard is the ARN of the table's own indexes (GSI1 list queries); item writes of read-only routes are further limited by dynamodb:LeadingKeys (ACCT#*, RL#*) and dynamodb:Attributes conditions.",
    });
  }
}

const AUTHORIZATION_IN_LAMBDA: Record<AuthKind, string> = {
  basic:
    'Authorization is done in the Lambda: it checks the Basic public:secret key pair against the stored secret-key hash, rate-limited per client IP (10 calls per minute).',
  bearer:
    'Authorization is done in the Lambda: it verifies the HMAC-signed Bearer token and checks it against the account key version on every call, so rotated keys revoke tokens at once.',
  none: 'Public on purpose: this route serves no account data (the OpenAPI document, or the JSON 404/405 answer of the $default route).',
};

/** API Gateway authorizers are not used: each route's Lambda authorizes the call itself. */
function acknowledgeLambdaAuthorization(route: apigw.HttpRoute, auth: AuthKind): void {
  Validations.of(route).acknowledge({ id: 'AwsSolutions-APIG4', reason: AUTHORIZATION_IN_LAMBDA[auth] });
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
