import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/http/routes';
import { functionIdOf, routeFunctions } from '../../shared/http/route';
import { keys } from '../../shared/adapters/dynamo/keys';
import { ipLogKey } from '../../shared/adapters/dynamo/rate-counter';
import { checkoutUpkeepWorker, queueList, queues, reconcileWorker, streamConsumerList, streamForwarder, sweepWorker } from '../../shared/platform/queues';
import { allAccountIds } from '../../shared/adapters/dynamo/ledger-reconcile';
import type { Db } from '../../shared/adapters/dynamo/dynamo';
import { METRICS_NAMESPACE } from '../../shared/platform/metrics';
import { openPartitions } from '../../shared/adapters/dynamo/checkout-item';
import { pixSweepPartitions } from '../../shared/adapters/dynamo/pix-sweep-index';
import { API_GATEWAY_INTEGRATION_LIMIT_SECONDS, ApiFunction } from '../../infra/cdk/api-function';
import { DEFAULT_SETTINGS } from '../../infra/cdk/settings';
import { LOCAL_ONLY_SETTINGS } from '../../shared/platform/config';
import { KEY, RECONCILE_SCAN, routeGrants } from '../../infra/cdk/table-access';
import { authorizationReason, buildApp, DIRECT_ORIGIN_CALLS_METRIC, DIRECT_ORIGIN_CALLS_THRESHOLD, EDGE_AUTHORIZER_ID } from '../../infra/stack';
import type { AnyRoute } from '../../shared/http/route';
import { actionsOf, functionIds, type Json, NO_BUNDLING, type Statement, STREAM_ACTIONS, Synthesized } from './synthesized';
import { methodChargeRoutes } from '../../shared/http/route-table/charges';

const s = new Synthesized();
const { stack, template, resources } = { stack: s.stack, template: s.template, resources: s.resources };
const ALL_FUNCTION_IDS = functionIds(s);
const FOURTEEN_DAYS = 14 * 24 * 60 * 60;

const getAtt = (logicalId: string, attribute: string) => ({ 'Fn::GetAtt': [logicalId, attribute] });
const tableId = s.logicalId(stack.table);

describe('API routes and functions', () => {
  it("stays well inside CloudFormation's 500 resources per stack: fewer than 250 in each of its stacks (issue 44)", () => {
    // The flattened view holds every stack's resources.
    expect(Object.keys(template.toJSON().Resources as Record<string, unknown>).length).toBeGreaterThan(300);
    for (const t of s.templates) expect(Object.keys(t.template.Resources).length, t.path).toBeLessThan(250);
  });

  it('has one route per row of the route table plus $default (a shared function’s path with several methods: one ANY route), each behind the edge-origin authorizer', () => {
    // A path one shared function serves with several methods (a panel page and its form) is one ANY route.
    const methodsOf = new Map<string, number>();
    for (const route of routeList)
      if (route.fn !== undefined) methodsOf.set(`${route.fn} ${route.path}`, (methodsOf.get(`${route.fn} ${route.path}`) ?? 0) + 1);
    const anyPaths = new Set([...methodsOf].filter(([, n]) => n > 1).map(([key]) => key.slice(key.indexOf(' ') + 1)));
    expect(anyPaths.size).toBeGreaterThan(0);
    const keys = new Set(routeList.map((route) => (anyPaths.has(route.path) ? `ANY ${route.path}` : `${route.method} ${route.path}`)));
    template.resourceCountIs('AWS::ApiGatewayV2::Route', keys.size + 1);
    const [[authorizerId] = ['']] = s.ofType('AWS::ApiGatewayV2::Authorizer');
    const authorized = { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } };
    for (const key of keys) template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key, ...authorized });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default', ...authorized });
  });

  it('refuses calls around CloudFront before anything runs: a Lambda authorizer on the origin secret and the viewer address, simple answers cached 5 minutes (issue 25)', () => {
    const authorizers = s.ofType('AWS::ApiGatewayV2::Authorizer');
    expect(authorizers).toHaveLength(1);
    expect(authorizers[0]?.[1].Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.x-origin-verify', '$request.header.x-gateway-client-ip'],
      AuthorizerResultTtlInSeconds: 300,
    });
    expect(JSON.stringify(authorizers[0]?.[1].Properties?.AuthorizerUri)).toContain(s.functionLogicalId(EDGE_AUTHORIZER_ID));
    // It reads the origin secret, and no table.
    expect(s.functionProps(EDGE_AUTHORIZER_ID).Environment).toMatchObject({
      Variables: { EDGE_ORIGIN_SECRET_ID: { Ref: s.logicalId(stack.edge.originSecret) } },
    });
  });

  it('counts calls that went around CloudFront from the access log (ip "-") and alarms at 5 in 5 minutes', () => {
    const [filter] = s.ofType('AWS::Logs::MetricFilter').filter(([, f]) => JSON.stringify(f.Properties).includes(DIRECT_ORIGIN_CALLS_METRIC));
    expect(filter?.[1].Properties).toMatchObject({
      FilterPattern: '{ $.ip = "-" }',
      MetricTransformations: [{ MetricNamespace: METRICS_NAMESPACE, MetricName: DIRECT_ORIGIN_CALLS_METRIC, MetricValue: '1', DefaultValue: 0 }],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: DIRECT_ORIGIN_CALLS_METRIC,
      Namespace: METRICS_NAMESPACE,
      Threshold: DIRECT_ORIGIN_CALLS_THRESHOLD,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(stack.alarms.has('Direct origin calls')).toBe(true);
  });

  it('sends every route to its function: its own, or the one its area shares (`fn`)', () => {
    const integrations = Object.values(template.findResources('AWS::ApiGatewayV2::Integration'));
    // One integration per function: a shared function's routes share its integration.
    expect(integrations).toHaveLength(routeFunctions(routeList).size + 1);
    const targets = new Set(integrations.map((i) => JSON.stringify((i.Properties as Json).IntegrationUri)));
    expect(targets.size).toBe(routeFunctions(routeList).size + 1);
    for (const route of routeList) {
      expect(targets.has(JSON.stringify(getAtt(s.functionLogicalId(functionIdOf(route)), 'Arn')))).toBe(true);
    }
  });

  it('runs one Node 22 arm64 function per route, the fallback, one per queue, one per stream consumer, the sweep, the checkout upkeep and the reconciliation', () => {
    expect(ALL_FUNCTION_IDS.sort()).toEqual(
      [
        ...routeFunctions(routeList).keys(),
        'Fallback',
        ...queueList.map((q) => `${q.id}Worker`),
        ...streamConsumerList.map((c) => c.id),
        sweepWorker.id,
        checkoutUpkeepWorker.id,
        reconcileWorker.id,
        EDGE_AUTHORIZER_ID,
      ].sort(),
    );
    template.resourceCountIs('AWS::Lambda::Function', ALL_FUNCTION_IDS.length);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 512, Handler: 'index.handler' });
    }
    for (const queue of queueList) expect(s.functionProps(`${queue.id}Worker`).Timeout).toBe(queue.workerTimeoutSeconds);
  });

  it("keeps every API function's timeout inside API Gateway's 30 s integration limit, with time to answer", () => {
    for (const id of [...routeFunctions(routeList).keys(), 'Fallback']) {
      const timeout = Number(s.functionProps(id).Timeout);
      // The integration gives up at 30 s: a function still running then has answered nobody.
      expect(timeout, id).toBeLessThanOrEqual(API_GATEWAY_INTEGRATION_LIMIT_SECONDS - 5);
      expect(timeout, id).toBeGreaterThan(0);
    }
  });

  it('logs access on the $default stage as JSON without body or headers', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
    });
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
    const format = JSON.parse(((stage?.Properties as Json).AccessLogSettings as { Format: string }).Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      // The viewer's address (the one the per-IP limits count), from the edge-origin authorizer; the edge's beside it.
      ip: '$context.authorizer.viewerIp',
      edgeIp: '$context.identity.sourceIp',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latency: '$context.responseLatency',
    });
    expect(Object.values(format).join(' ')).not.toMatch(/authorization|\$input|body|header/i);
  });

  it('gives every function its own log group, and keeps every log group 365 days (PCI DSS 10.5.1)', () => {
    expect(DEFAULT_SETTINGS.logRetentionDays).toBe(365);
    for (const id of ALL_FUNCTION_IDS) {
      const logGroupRef = (s.functionProps(id).LoggingConfig as { LogGroup: { Ref: string } }).LogGroup;
      expect(resources[logGroupRef.Ref]?.Type, id).toBe('AWS::Logs::LogGroup');
    }
    const logGroups = s.ofType('AWS::Logs::LogGroup');
    // One per function and the API's access logs.
    expect(logGroups).toHaveLength(ALL_FUNCTION_IDS.length + 1);
    for (const [id, logGroup] of logGroups) expect(logGroup.Properties?.RetentionInDays, id).toBe(365);
  });

  it('sets the runtime environment and leaves the spec defaults to the code', () => {
    for (const id of ALL_FUNCTION_IDS) {
      const env = (s.functionProps(id).Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        MASTER_KEY_SECRET_ID: { Ref: stack.getLogicalId(stack.masterKey.node.defaultChild as CfnSecret) },
        POWERTOOLS_SERVICE_NAME: 'payment-gateway',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        STREAM_FAILURE_QUEUE_URL: { Ref: s.logicalId(stack.streamFailures.queue) },
      });
      const names = Object.keys(env);
      expect(names).not.toContain('WEBHOOK_ALLOW_PRIVATE_HOSTS');
      // The local stack's settings (the authenticator's test clock, shared/platform/config.ts LOCAL_ONLY_SETTINGS): never deployed.
      expect(names.filter((n) => n.startsWith('LOCAL_') || (LOCAL_ONLY_SETTINGS as readonly string[]).includes(n))).toEqual([]);
      // --enable-source-maps cost 27-41 ms of every cold start (bench, cold-start section): not set.
      expect(names).not.toContain('NODE_OPTIONS');
      expect(names.filter((n) => n.startsWith('RATE_LIMIT_') || n === 'TOKEN_TTL_SECONDS')).toEqual([]);
    }
  });
});

describe('edge protection', () => {
  const stage = () => {
    const stages = s.ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    return stages[0] as [string, { Properties: Json; DependsOn?: string[] }];
  };

  it('throttles every route of the $default stage (rate and burst from the settings)', () => {
    expect(stage()[1].Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: DEFAULT_SETTINGS.throttleRate,
      ThrottlingBurstLimit: DEFAULT_SETTINGS.throttleBurst,
      DetailedMetricsEnabled: true,
    });
  });

  it('throttles POST /api/auth tighter than the rest, with a route setting on a route that exists before the stage', () => {
    const [, props] = stage();
    const authKey = `${routes.authToken.method} ${routes.authToken.path}`;
    expect(authKey).toBe('POST /api/auth');
    expect(props.Properties.RouteSettings).toEqual({
      [authKey]: { ThrottlingRateLimit: DEFAULT_SETTINGS.authThrottleRate, ThrottlingBurstLimit: DEFAULT_SETTINGS.authThrottleBurst },
    });
    expect(DEFAULT_SETTINGS.authThrottleRate).toBeLessThan(DEFAULT_SETTINGS.throttleRate);
    const [authRouteId = ''] = s.ofType('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties?.RouteKey === authKey) ?? [];
    // The route is in its function's nested stack (issue 44): the stage depends on that stack, so on the route in it.
    const authStack = Stack.of(s.fn(routes.authToken.id).fn);
    expect(s.templates.find((t) => t.stack === authStack)?.template.Resources[authRouteId]).toBeDefined();
    const holder = (authStack as NestedStack).nestedStackResource as CfnElement | undefined;
    expect(holder).toBeDefined();
    expect(props.DependsOn).toContain(holder && stack.getLogicalId(holder));
  });

  it('reserves concurrency for the provider notifications and the stream forwarder, and for nothing else', () => {
    const reserved = Object.fromEntries(
      ALL_FUNCTION_IDS.map((id) => [id, s.functionProps(id).ReservedConcurrentExecutions]).filter(([, n]) => n !== undefined),
    );
    expect(reserved).toEqual({
      [routes.providerNotification.id]: DEFAULT_SETTINGS.providerNotificationConcurrency,
      [streamForwarder.id]: DEFAULT_SETTINGS.streamForwarderConcurrency,
    });
    // AWS keeps at least 100 of the account's concurrency unreserved (1,000 by default).
    expect(Object.values(reserved).reduce((a: number, b) => a + Number(b), 0)).toBeLessThanOrEqual(1000 - 100);
  });

  it("outputs the API base URL (CloudFront's address without a custom domain, never execute-api) and gives it to every route", () => {
    const address = stack.resolve(stack.baseUrl) as unknown;
    expect(JSON.stringify(address)).toContain(s.logicalId(stack.edge.distribution));
    expect(template.toJSON().Outputs.ApiUrl.Value).toEqual(address);
    for (const route of routeList) {
      const variables = (s.functionProps(functionIdOf(route)).Environment as { Variables: Json }).Variables;
      expect(variables.PUBLIC_BASE_URL, route.id).toEqual(address);
    }
    // execute-api stays on: it is CloudFront's origin (a request sent there directly lacks the origin secret: 403).
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });
});

describe('storage and secrets', () => {
  it('has the single table with PITR, TTL, stream, deletion protection, GSI1 (lists) and GSI2 (the sweep)', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        DeletionProtectionEnabled: true,
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeySchema: [
              { AttributeName: 'GSI1PK', KeyType: 'HASH' },
              { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
          {
            IndexName: 'GSI2',
            KeySchema: [
              { AttributeName: 'GSI2PK', KeyType: 'HASH' },
              { AttributeName: 'GSI2SK', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      },
    });
  });

  it("generates the master key secret, the provider credentials secret and the edge's origin secret", () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'masterKey', PasswordLength: 64, ExcludePunctuation: true },
    });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'simulated', PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it('outputs the API URL, the table name, the secret ARNs and the stream failure queue', () => {
    for (const name of ['ApiUrl', 'TableName', 'MasterKeySecretArn', 'ProviderSecretArn']) template.hasOutput(name, {});
    template.hasOutput('StreamFailureQueueUrl', { Value: { Ref: s.logicalId(stack.streamFailures.queue) } });
  });

  it('lets only the notification route read the provider credentials', () => {
    const providerSecret = JSON.stringify(stack.resolve(stack.providerCredentials.secretArn));
    const readers = ALL_FUNCTION_IDS.filter((id) => s.roleStatements(id).some((st) => JSON.stringify(st.Resource) === providerSecret));
    expect(readers).toEqual(['ProviderNotification']);
    for (const route of routeList) {
      expect((s.functionProps(functionIdOf(route)).Environment as { Variables: Json }).Variables.PROVIDER_SECRET_ID, route.id).toBeDefined();
    }
  });
});

describe('queues, the stream and their alarms', () => {
  const queueIds = () => s.ofType('AWS::SQS::Queue').map(([id]) => id);
  const sqsMappings = () => s.ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn).includes('Queue'));
  const streamMappings = () =>
    s.ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn).includes('StreamArn'));
  // The throttles alarm every function has is tested in observability.test.ts.
  const alarmsOn = (dimensionValue: unknown) =>
    s
      .ofType('AWS::CloudWatch::Alarm')
      .filter(([, a]) => a.Properties?.MetricName !== 'Throttles')
      .filter(([, a]) => ((a.Properties?.Dimensions ?? []) as { Value: unknown }[]).some((d) => JSON.stringify(d.Value) === JSON.stringify(dimensionValue)));

  it('keeps every queue and DLQ message 14 days, SSL-only and encrypted', () => {
    // Each service queue with its DLQ, and the stream failure queue.
    expect(queueIds()).toHaveLength(queueList.length * 2 + 1);
    for (const [id, queue] of s.ofType('AWS::SQS::Queue')) {
      // Pending money events survive a stack deletion or a queue replacement (issue 25).
      expect((queue as { DeletionPolicy?: string }).DeletionPolicy, id).toBe('Retain');
      expect((queue as { UpdateReplacePolicy?: string }).UpdateReplacePolicy, id).toBe('Retain');
      expect(queue.Properties, id).toMatchObject({ MessageRetentionPeriod: FOURTEEN_DAYS, SqsManagedSseEnabled: true });
      const policies = s.ofType('AWS::SQS::QueuePolicy').filter(([, p]) => JSON.stringify(p.Properties?.Queues) === JSON.stringify([{ Ref: id }]));
      expect(JSON.stringify(policies.map(([, p]) => p.Properties?.PolicyDocument)), id).toContain('"aws:SecureTransport":"false"');
    }
  });

  it("gives every SQS queue a visibility timeout of at least 6 × its consumer's timeout", () => {
    const mappings = sqsMappings();
    expect(mappings).toHaveLength(queueList.length);
    for (const [id, mapping] of mappings) {
      const queueId = ((mapping.Properties?.EventSourceArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'] ?? [])[0] ?? '';
      const fnId = (mapping.Properties?.FunctionName as { Ref: string }).Ref;
      const visibility = Number(resources[queueId]?.Properties?.VisibilityTimeout);
      const timeout = Number(resources[fnId]?.Properties?.Timeout);
      expect(timeout, id).toBeGreaterThan(0);
      expect(visibility, id).toBeGreaterThanOrEqual(6 * timeout);
    }
  });

  it('consumes each queue with ReportBatchItemFailures and the MaximumConcurrency of its definition', () => {
    for (const def of queueList) {
      const serviceQueue = stack.queues.get(def.id);
      if (!serviceQueue) throw new Error(def.id);
      const queueId = s.logicalId(serviceQueue.queue);
      const [mapping] = sqsMappings().filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(getAtt(queueId, 'Arn')));
      expect(mapping?.[1].Properties, def.id).toMatchObject({
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: def.batchSize,
        ScalingConfig: { MaximumConcurrency: def.maxConcurrency },
        FunctionName: { Ref: s.functionLogicalId(`${def.id}Worker`) },
      });
      // The range SQS event sources accept.
      expect(def.maxConcurrency).toBeGreaterThanOrEqual(2);
      expect(def.maxConcurrency).toBeLessThanOrEqual(1000);
    }
  });

  it('gives each queue a DLQ after maxReceiveCount, alarmed at one message', () => {
    for (const def of queueList) {
      const serviceQueue = stack.queues.get(def.id);
      if (!serviceQueue) throw new Error(def.id);
      const dlqId = s.logicalId(serviceQueue.dlq);
      expect(resources[s.logicalId(serviceQueue.queue)]?.Properties?.RedrivePolicy).toEqual({
        deadLetterTargetArn: getAtt(dlqId, 'Arn'),
        maxReceiveCount: def.maxReceiveCount,
      });
      const alarms = alarmsOn(getAtt(dlqId, 'QueueName'));
      expect(alarms, def.id).toHaveLength(1);
      expect(alarms[0]?.[1].Properties).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('reads the stream filtered to INSERTs of withdraw, event, redelivery and mail items, reports partial failures, retries bounded with bisection', () => {
    const mappings = streamMappings();
    expect(mappings).toHaveLength(1);
    const props = mappings[0]?.[1].Properties;
    expect(props).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: streamForwarder.retryAttempts,
      MaximumRecordAgeInSeconds: streamForwarder.maxRecordAgeSeconds,
      FilterCriteria: {
        Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['withdraw', 'event', 'redelivery', 'mail'] } } } }) }],
      },
      DestinationConfig: { OnFailure: { Destination: getAtt(s.logicalId(stack.streamFailures.queue), 'Arn') } },
    });
    // Bounded: not -1 (until the record expires), and records are given up on before the stream's 24 h.
    expect(streamForwarder.retryAttempts).toBeGreaterThan(0);
    expect(streamForwarder.maxRecordAgeSeconds).toBeGreaterThanOrEqual(60);
    expect(streamForwarder.maxRecordAgeSeconds).toBeLessThan(24 * 3600);
  });

  it('sends what the stream gives up on to a plain queue, alarmed on its own depth', () => {
    const failureId = s.logicalId(stack.streamFailures.queue);
    // Nothing consumes it: no redrive policy, no DLQ behind it, no event source mapping.
    expect(resources[failureId]?.Properties?.RedrivePolicy).toBeUndefined();
    expect(s.ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn).includes(failureId))).toEqual([]);
    const alarms = alarmsOn(getAtt(failureId, 'QueueName'));
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it("alarms on the forwarder's errors and on its iterator age (5 minutes behind the stream)", () => {
    const alarms = alarmsOn({ Ref: s.functionLogicalId(streamForwarder.id) });
    const byMetric = Object.fromEntries(alarms.map(([, a]) => [String(a.Properties?.MetricName), a.Properties]));
    expect(Object.keys(byMetric).sort()).toEqual(['Errors', 'IteratorAge']);
    expect(byMetric.IteratorAge).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Threshold: 5 * 60 * 1000,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(Number(byMetric.IteratorAge?.Threshold)).toBeLessThan(streamForwarder.maxRecordAgeSeconds * 1000);
    expect(byMetric.Errors).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it("lets the workers whose retries re-enter their own queue run their whole schedule (RecursiveLoop Allow), and every other function keep AWS's Terminate", () => {
    const queueWorkers = new Set(queueList.map((def) => s.functionLogicalId(`${def.id}Worker`)));
    for (const def of queueList) {
      expect(resources[s.functionLogicalId(`${def.id}Worker`)]?.Properties?.RecursiveLoop, def.id).toBe(def.recursiveLoop);
    }
    expect(queues.payouts.recursiveLoop).toBe('Allow');
    expect(queues.webhooks.recursiveLoop).toBe('Allow');
    for (const [id, fn] of s.ofType('AWS::Lambda::Function')) {
      if (!queueWorkers.has(id)) expect(fn.Properties?.RecursiveLoop, id).toBe('Terminate');
    }
  });

  it('alarms on RecursiveInvocationsDropped of every function that consumes a queue, at one dropped invocation', () => {
    const mappings = sqsMappings();
    expect(mappings.length).toBeGreaterThan(0);
    for (const [id, mapping] of mappings) {
      const fnId = (mapping.Properties?.FunctionName as { Ref: string }).Ref;
      const alarms = s
        .ofType('AWS::CloudWatch::Alarm')
        .filter(([, a]) => a.Properties?.MetricName === 'RecursiveInvocationsDropped')
        .filter(([, a]) => JSON.stringify(a.Properties?.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: fnId } }]));
      expect(alarms, id).toHaveLength(1);
      expect(alarms[0]?.[1].Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
    for (const def of queueList) expect(stack.alarms.has(`${def.id} recursive invocations dropped`), def.id).toBe(true);
  });

  it('names its alarms: each DLQ, the failure queue, the forwarder errors and iterator age, the sweep, checkout upkeep and reconciliation errors, ledger differences (and the per-function and 5xx alarms of observability.test.ts)', () => {
    expect([...stack.alarms.keys()].sort()).toEqual(
      expect.arrayContaining([
        'payouts DLQ depth',
        'webhooks DLQ depth',
        'stream failure queue depth',
        'StreamForwarder errors',
        'StreamForwarder iterator age',
        'Sweep errors',
        'CheckoutUpkeep errors',
        'Reconcile errors',
        'Ledger differences',
      ]),
    );
    template.resourceCountIs('AWS::CloudWatch::Alarm', stack.alarms.size);
  });
});

describe('scheduled workers', () => {
  const rulesFor = (id: string) =>
    s
      .ofType('AWS::Events::Rule')
      .filter(([, r]) =>
        (r.Properties?.Targets as { Arn: unknown }[]).some((t) => JSON.stringify(t.Arn) === JSON.stringify(getAtt(s.functionLogicalId(id), 'Arn'))),
      );
  const variables = (id: string) => (s.functionProps(id).Environment as { Variables: Json }).Variables;

  // The throttles alarm every function has is tested in observability.test.ts.
  const alarmsOfFunction = (id: string) =>
    s
      .ofType('AWS::CloudWatch::Alarm')
      .filter(([, a]) => a.Properties?.MetricName !== 'Throttles')
      .filter(([, a]) =>
        ((a.Properties?.Dimensions ?? []) as { Value: unknown }[]).some((d) => JSON.stringify(d.Value) === JSON.stringify({ Ref: s.functionLogicalId(id) })),
      );

  it('runs the sweep and the checkout upkeep every 5 minutes and the reconciliation once a day, each from one rule allowed to invoke it, retried twice', () => {
    template.resourceCountIs('AWS::Events::Rule', 3);
    const expressions: Record<string, string> = {
      [sweepWorker.id]: 'rate(5 minutes)',
      [checkoutUpkeepWorker.id]: 'rate(5 minutes)',
      [reconcileWorker.id]: 'rate(1 day)',
    };
    for (const worker of [sweepWorker, checkoutUpkeepWorker, reconcileWorker]) {
      const rules = rulesFor(worker.id);
      expect(rules, worker.id).toHaveLength(1);
      const [ruleId, rule] = rules[0] ?? [];
      expect(rule?.Properties, worker.id).toMatchObject({
        ScheduleExpression: expressions[worker.id],
        State: 'ENABLED',
        Targets: [{ Arn: getAtt(s.functionLogicalId(worker.id), 'Arn'), RetryPolicy: { MaximumRetryAttempts: 2 } }],
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: getAtt(s.functionLogicalId(worker.id), 'Arn'),
        Principal: 'events.amazonaws.com',
        SourceArn: getAtt(ruleId ?? '', 'Arn'),
      });
    }
    expect(checkoutUpkeepWorker.everyMinutes).toBe(5);
    expect(reconcileWorker.everyMinutes).toBe(24 * 60);
  });

  it('starts the reconciliation in 60 s with the environment of the other workers: no secret, no table, only the reconcile queue to send to (issue 25: it fans out)', () => {
    expect(s.functionProps(reconcileWorker.id).Timeout).toBe(60);
    expect(reconcileWorker.timeoutSeconds).toBe(60);
    expect(variables(reconcileWorker.id)).toEqual(variables(sweepWorker.id));
    const actions = actionsOf(s.roleStatements(reconcileWorker.id));
    expect(actions.filter((a) => a.startsWith('secretsmanager:') || a.startsWith('dynamodb:'))).toEqual([]);
    const sends = s.roleStatements(reconcileWorker.id).filter((st) => actionsOf([st]).some((a) => a.startsWith('sqs:')));
    expect(JSON.stringify(sends.map((st) => st.Resource))).toBe(
      JSON.stringify([getAtt(s.logicalId(stack.queues.get(queues.reconcile.id)?.queue ?? stack), 'Arn')]),
    );
    // The pages: the reconcile queue's consumer, one page per message, its chain of pages let run (RecursiveLoop Allow).
    expect(queues.reconcile).toMatchObject({ batchSize: 1, recursiveLoop: 'Allow', handler: 'functions/workers/reconcile-page.ts' });
    expect(s.functionProps(`${queues.reconcile.id}Worker`).RecursiveLoop).toBe('Allow');
  });

  it('alarms when EventBridge could not start the reconciliation (FailedInvocations of its rule)', () => {
    const alarms = s.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties?.MetricName === 'FailedInvocations');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({ Namespace: 'AWS/Events', Threshold: 1, TreatMissingData: 'notBreaching' });
    expect(stack.alarms.get('Reconcile schedule failed')).toBeDefined();
  });

  it('alarms on any ledger difference: Maximum of PaymentGateway/LedgerDifferences above 0 over a day; a day without data is not breaching (a fresh deploy is not in ALARM before its first run)', () => {
    const alarms = s.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties?.MetricName === reconcileWorker.metric);
    expect(alarms).toHaveLength(1);
    expect(METRICS_NAMESPACE).toBe('PaymentGateway');
    expect(alarms[0]?.[1].Properties).toMatchObject({
      Namespace: 'PaymentGateway',
      MetricName: 'LedgerDifferences',
      Statistic: 'Maximum',
      Period: 24 * 3600,
      Threshold: 0,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    // The metric the worker publishes (embedded metric format) has no dimension: neither may the alarm's.
    expect(alarms[0]?.[1].Properties?.Dimensions).toBeUndefined();
    expect(String(alarms[0]?.[1].Properties?.AlarmDescription)).toMatch(/account reconcile --all/);
    expect(stack.alarms.get('Ledger differences')).toBeDefined();
  });

  it('alarms on any failed run of the reconciliation within an hour (a daily run has no next run to fix it)', () => {
    const alarms = alarmsOfFunction(reconcileWorker.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Statistic: 'Sum',
      Period: 3600,
      Threshold: 1,
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(String(alarms[0]?.[1].Properties?.AlarmDescription)).toMatch(/reconciliation/);
    expect(stack.alarms.get('Reconcile errors')).toBeDefined();
  });

  it('gives the checkout upkeep its 120 s, which ends a run before the next one starts', () => {
    expect(s.functionProps(checkoutUpkeepWorker.id).Timeout).toBe(checkoutUpkeepWorker.timeoutSeconds);
    expect(checkoutUpkeepWorker.timeoutSeconds).toBe(120);
    expect(checkoutUpkeepWorker.timeoutSeconds).toBeLessThan(checkoutUpkeepWorker.everyMinutes * 60);
  });

  it("runs the checkout upkeep with the API functions' environment: same provider, base URL, CHECKOUT_TTL and provider timeout", () => {
    const upkeep = variables(checkoutUpkeepWorker.id);
    // The entry dates the Pix charge by CHECKOUT_TTL and the upkeep abandons by it: they must read the same value.
    // (Less the edge's origin secret: the upkeep takes no request.)
    const { EDGE_ORIGIN_SECRET_ID, ...entry } = variables(routes.checkoutEntry.id);
    expect(EDGE_ORIGIN_SECRET_ID).toBeDefined();
    expect(upkeep).toEqual(entry);
    expect(upkeep.PUBLIC_BASE_URL).toEqual(stack.resolve(stack.baseUrl));
    expect(Object.keys(upkeep).filter((name) => name === 'CHECKOUT_TTL' || name === 'PROVIDER_TIMEOUT_MS' || name === 'PAYMENT_PROVIDER')).toEqual([]);
  });

  it('lets the checkout upkeep read the master key (a confirmed card payment seals the payer), and no other secret or queue', () => {
    const secretId = stack.getLogicalId(stack.masterKey.node.defaultChild as CfnSecret);
    const statements = s.roleStatements(checkoutUpkeepWorker.id);
    const secrets = statements.filter((st) => actionsOf([st]).some((a) => a.startsWith('secretsmanager:')));
    expect(secrets.map((st) => st.Resource)).toEqual([{ Ref: secretId }]);
    expect(actionsOf(secrets).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
    expect(actionsOf(statements).filter((a) => a.startsWith('sqs:'))).toEqual([]);
  });

  it("alarms on the checkout upkeep's errors in two 10-minute periods in a row", () => {
    const alarms = alarmsOfFunction(checkoutUpkeepWorker.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Statistic: 'Sum',
      Period: 600,
      Threshold: 1,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(String(alarms[0]?.[1].Properties?.AlarmDescription)).toMatch(/checkout upkeep/);
    expect(stack.alarms.get('CheckoutUpkeep errors')).toBeDefined();
  });
});

/**
 * The table actions each function may call, as `<action> [GSI1] <partition-key pattern> [attributes]`,
 * read from the synthesized policies. Written out here from what each handler calls (functions/,
 * shared/); the local stack and the integration tests evaluate every call against them (infra/local/iam/).
 */
const READ_COUNTER = 'UpdateItem ACCT#* [PK,SK,kv,disabled,rlLog,rlWin,rlCnt]';
const WRITE_COUNTER = 'UpdateItem ACCT#*';
/** The lock, its completion and release, and a refused request's read of the key's record (a reused key named first). */
const IDEMPOTENCY = ['GetItem IDEM#*', 'PutItem IDEM#*', 'UpdateItem IDEM#*', 'DeleteItem IDEM#*'];
/** A new invoice's ids checked unused: its INV# and INVID# keys in one BatchGetItem (shared/adapters/dynamo/invoices.ts). */
const INVOICE_ID_CHECK = ['BatchGetItem INV#*', 'BatchGetItem INVID#*'];
/** Forwarded items leave the sweep's index: only its attributes may change. */
const LEAVE_SWEEP_INDEX = 'UpdateItem WD#* [PK,SK,GSI2PK,GSI2SK]';
const LEAVE_SWEEP_INDEX_EVT = 'UpdateItem EVT#* [PK,SK,GSI2PK,GSI2SK]';
const LEAVE_SWEEP_INDEX_MAIL = 'UpdateItem MAIL#* [PK,SK,GSI2PK,GSI2SK]';
/** A balance movement's immutable ledger entry (PK LEDGER#<id>#<shard>, SK <time>#<txn>), in the movement's transaction (shared/domain/ledger.ts and shared/adapters/dynamo/ledger.ts). */
const LEDGER_ENTRY = 'PutItem LEDGER#*';
/** A movement's change of one balance shard (PK BAL#<id>#<shard>). */
const SHARD_UPDATE = 'UpdateItem BAL#*';
/** The account item (its shard count) and its balance shards, read in one BatchGetItem (shared/adapters/dynamo/ledger-balance.ts). */
const SHARDS_READ = ['BatchGetItem ACCT#*', 'BatchGetItem BAL#*'];
/** The hosted checkout's public routes count their calls per client IP. */
const CHECKOUT_COUNTER = 'UpdateItem RL#checkout#* [PK,SK,rlLog,rlCnt,ttl]';
/** Every Bearer route counts calls whose token fails per client IP (shared/app/auth/admit.ts). */
const UNAUTHENTICATED_COUNTER = 'UpdateItem RL#unauthenticated#* [PK,SK,rlLog,rlCnt,ttl]';
/** The other public routes with table access (the provider's notifications, the boleto page) count per client IP. */
const PUBLIC_COUNTER = 'UpdateItem RL#public#* [PK,SK,rlLog,rlCnt,ttl]';
/** A signed-in panel form with step-up: the session, the person's code, the failures counted. */
const PANEL_STEP_UP = [
  PUBLIC_COUNTER,
  'GetItem PSESS#*',
  'UpdateItem PSESS#*',
  // A session whose person left the team is closed where it is used (shared/http/panel/signed-in.ts).
  'DeleteItem PSESS#*',
  'GetItem PUSER#*',
  'UpdateItem PUSER#*',
  'GetItem PLIM#*',
  'UpdateItem PLIM#*',
];
/** …that also changes the account item. */
const PANEL_STEP_UP_ON_ACCOUNT = [...PANEL_STEP_UP, 'GetItem ACCT#*', 'UpdateItem ACCT#*'];
/** A card payment recorded: the card invoice and its pointer, the balance credit, invoice.paid, the checkout's move and order.paid. */
const CHECKOUT_CARD_PAYMENT = ['PutItem INV#*', 'PutItem INVID#*', SHARD_UPDATE, LEDGER_ENTRY, 'PutItem EVT#*', 'UpdateItem CHK#*'];
const EXPECTED_TABLE_ACCESS: Record<string, string[]> = {
  AuthToken: ['UpdateItem RL#auth#* [PK,SK,rlLog,rlCnt,ttl]', 'GetItem PUBKEY#*'],
  GetBalance: [READ_COUNTER, UNAUTHENTICATED_COUNTER, ...SHARDS_READ],
  // The shard count on the account item, then each shard's ledger partition.
  ListBalanceTransactions: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem ACCT#*', 'Query LEDGER#*'],
  CreateCustomer: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER, ...IDEMPOTENCY, 'PutItem ACCT#*', 'PutItem CUSTID#*'],
  GetCustomer: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem ACCT#*'],
  ListCustomers: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'Query ACCT#*'],
  ListCountries: [READ_COUNTER, UNAUTHENTICATED_COUNTER],
  ListStates: [READ_COUNTER, UNAUTHENTICATED_COUNTER],
  SearchCep: [UNAUTHENTICATED_COUNTER, 'UpdateItem RL#cep#* [PK,SK,rlLog,rlCnt,ttl]', 'GetItem ACCT#*', 'GetItem CEP#*', 'PutItem CEP#*'],
  CreatePixCharge: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER, ...IDEMPOTENCY, ...INVOICE_ID_CHECK, 'PutItem INV#*', 'PutItem INVID#*'],
  // A charge route derived from a method's row (shared/http/route-table/charges.ts): the Pix charge's grants, nothing more.
  ...Object.fromEntries(
    Object.values(methodChargeRoutes).map((route) => [
      route.id,
      [WRITE_COUNTER, UNAUTHENTICATED_COUNTER, ...IDEMPOTENCY, ...INVOICE_ID_CHECK, 'PutItem INV#*', 'PutItem INVID#*'],
    ]),
  ),
  CreateBoletoCharge: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER, ...IDEMPOTENCY, ...INVOICE_ID_CHECK, 'GetItem ACCT#*', 'PutItem INV#*', 'PutItem INVID#*'],
  // The balance credit is an UpdateItem of one balance shard (BAL#), not of the account item.
  CreateCardCharge: [
    WRITE_COUNTER,
    UNAUTHENTICATED_COUNTER,
    ...IDEMPOTENCY,
    ...INVOICE_ID_CHECK,
    'GetItem INV#*',
    'PutItem INV#*',
    'PutItem INVID#*',
    'PutItem EVT#*',
    SHARD_UPDATE,
    LEDGER_ENTRY,
    // The charge's attempt, and a retry settling a lost answer (the invoice's move, as a notification makes it).
    'GetItem CARDATT#*',
    'PutItem CARDATT#*',
    'UpdateItem CARDATT#*',
    'DeleteItem CARDATT#*',
    'UpdateItem INV#*',
    'GetItem CHK#*',
    'UpdateItem CHK#*',
    // The card testing caps' slot logs (a card's, the merchant's): taken and given back.
    'UpdateItem DECL#*',
  ],
  ListInvoices: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'Query GSI1 ACCT#*#INVOICES'],
  GetInvoice: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem INVID#*', 'GetItem INV#*'],
  // Issue 46: the invoice by its id pointer and its checkout read; its move (INV#), its event, an unpaid checkout abandoned.
  CancelInvoice: [
    WRITE_COUNTER,
    UNAUTHENTICATED_COUNTER,
    ...IDEMPOTENCY,
    'GetItem INVID#*',
    'GetItem INV#*',
    'GetItem CHK#*',
    'UpdateItem INV#*',
    'PutItem EVT#*',
    'UpdateItem CHK#*',
  ],
  GetInvoiceByReference: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem INV#*'],
  GetPixInvoiceByReference: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem INV#*'],
  GetPixInvoiceByTxid: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem INV#*'],
  // The shards read (a refusal re-reads them in one TransactGetItems: GetItem), one conditional update per shard taken from.
  CreateWithdraw: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER, ...IDEMPOTENCY, ...SHARDS_READ, 'GetItem BAL#*', SHARD_UPDATE, 'PutItem WD#*', LEDGER_ENTRY],
  GetWithdraw: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem WD#*'],
  ListWithdrawals: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'Query GSI1 ACCT#*#WITHDRAWALS'],
  GetWebhook: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'GetItem ACCT#*'],
  PutWebhook: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER],
  RotateWebhookSecret: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER],
  TestWebhook: [WRITE_COUNTER, UNAUTHENTICATED_COUNTER, 'PutItem EVT#*'],
  ListWebhookDeliveries: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'Query GSI1 ACCT#*#DELIVERIES'],
  // The events API (issue 29): the account's events, a page's deliveries in one batch, the webhook settings; a redelivery's request and reopen.
  Events: [
    READ_COUNTER,
    WRITE_COUNTER,
    UNAUTHENTICATED_COUNTER,
    'Query GSI1 ACCT#*#EVENTS',
    'BatchGetItem DLV#*',
    'GetItem ACCT#*',
    'GetItem EVT#*',
    'GetItem DLV#*',
    'PutItem EVT#*',
    'UpdateItem DLV#*',
  ],
  // An invoice of a hosted checkout pays the checkout (or moves its order) in the same transaction.
  ProviderNotification: [
    PUBLIC_COUNTER,
    'GetItem INV#*',
    'GetItem WD#*',
    'GetItem CHK#*',
    'UpdateItem INV#*',
    'UpdateItem WD#*',
    SHARD_UPDATE,
    'UpdateItem CHK#*',
    'PutItem EVT#*',
    LEDGER_ENTRY,
  ],
  // Each charge the callback names: its invoice read, then what the PSP holds applied as a notification is (no withdraws).
  ProviderPixCallback: [PUBLIC_COUNTER, 'GetItem INV#*', 'GetItem CHK#*', 'UpdateItem INV#*', SHARD_UPDATE, 'UpdateItem CHK#*', 'PutItem EVT#*', LEDGER_ENTRY],
  BoletoPage: [PUBLIC_COUNTER, 'GetItem INV#*'],
  // The merchant panel's door (issue 27): its own key prefixes only, each action one of its routes calls.
  PanelAccess: [
    PUBLIC_COUNTER,
    'GetItem PSESS#*',
    'PutItem PSESS#*',
    'UpdateItem PSESS#*',
    'DeleteItem PSESS#*',
    'GetItem PLIM#*',
    'UpdateItem PLIM#*',
    'GetItem PUSER#*',
    'UpdateItem PUSER#*',
    'PutItem PUSER#*',
    'GetItem PINV#*',
    'DeleteItem PINV#*',
    // Issue 43: an invite's link works only while its e-mail's live entry names it, and while its sender still backs it.
    'GetItem PINVS#*',
    'DeleteItem PINVS#*',
    'ConditionCheckItem PUSER#*',
    'PutItem PAUDIT#*',
    'PutItem MAIL#*',
    'UpdateItem PTEAM#*',
    'Query GSI1 PSESSLIST#*',
    // The account's name, which the password policy reads (issue 43).
    'GetItem ACCT#*',
  ],
  // Password recovery: the person, the per-e-mail count, the link with its mail (PRESET#, MAIL#), the code, the link used with the password replaced, the sessions tidied.
  PanelRecovery: [
    PUBLIC_COUNTER,
    'GetItem PUSER#*',
    'UpdateItem PUSER#*',
    'GetItem PLIM#*',
    'UpdateItem PLIM#*',
    'GetItem PRESET#*',
    'PutItem PRESET#*',
    'DeleteItem PRESET#*',
    'PutItem MAIL#*',
    'PutItem PAUDIT#*',
    'DeleteItem PSESS#*',
    'Query GSI1 PSESSLIST#*',
    'GetItem ACCT#*',
  ],
  // The API keys (step-up, then the rotation's transaction with its audit entry), the audit log and the team.
  PanelSettings: [
    ...PANEL_STEP_UP_ON_ACCOUNT,
    'PutItem PUBKEY#*',
    'DeleteItem PUBKEY#*',
    'PutItem PAUDIT#*',
    'Query PAUDIT#*',
    'Query GSI1 ACCT#*#PEOPLE',
    'PutItem PINV#*',
    'PutItem MAIL#*',
    'DeleteItem PUSER#*',
    'UpdateItem PTEAM#*',
    // Issue 43: the account's pending invites (listed, one live per e-mail, replaced, revoked, and revoked with their sender), the sender checked.
    'Query PINVS#*',
    'GetItem PINVS#*',
    'PutItem PINVS#*',
    'DeleteItem PINVS#*',
    'DeleteItem PINV#*',
    'ConditionCheckItem PUSER#*',
    // Issue 44: which pending invites' addresses are suppressed (their mail "não entregue"), in one batch read.
    'BatchGetItem MAILSUP#*',
    // …and how their mails ended (an invite SES refused: the sandbox's unverified address).
    'BatchGetItem MAIL#*',
  ],
  // The webhook: its URL and secret on the account item (step-up), a ping (an outbox event), the deliveries (GSI1), a redelivery (the event and delivery read, the delivery reopened, the request put).
  PanelWebhooks: [
    ...PANEL_STEP_UP_ON_ACCOUNT,
    'PutItem PAUDIT#*',
    'Query GSI1 ACCT#*#DELIVERIES',
    'PutItem EVT#*',
    'GetItem EVT#*',
    'GetItem DLV#*',
    'UpdateItem DLV#*',
  ],
  // The signed-in pages: the session, the person, the account's name and its balance as GET /api/balance reads it.
  PanelHome: [
    PUBLIC_COUNTER,
    'GetItem PSESS#*',
    'UpdateItem PSESS#*',
    'DeleteItem PSESS#*',
    'GetItem PUSER#*',
    'GetItem ACCT#*',
    'Query ACCT#*',
    'Query LEDGER#*',
    ...SHARDS_READ,
  ],
  // The money pages: the API's reads of withdrawals, invoices (with their events and deliveries) and the ledger, and POST /api/pixout/create's reservation after a step-up, with its audit entry.
  PanelMoney: [
    ...PANEL_STEP_UP,
    'GetItem ACCT#*',
    'Query GSI1 ACCT#*#WITHDRAWALS',
    'Query GSI1 ACCT#*#INVOICES',
    'GetItem WD#*',
    'GetItem INV#*',
    'GetItem EVT#*',
    'GetItem DLV#*',
    'Query LEDGER#*',
    ...SHARDS_READ,
    'GetItem BAL#*',
    SHARD_UPDATE,
    'PutItem WD#*',
    LEDGER_ENTRY,
    'PutItem PAUDIT#*',
  ],
  CheckoutEntry: [
    CHECKOUT_COUNTER,
    ...INVOICE_ID_CHECK,
    'GetItem PUBKEY#*',
    'GetItem ACCT#*',
    'GetItem CHKTX#*',
    'GetItem CHK#*',
    'PutItem CHK#*',
    'PutItem CHKTX#*',
    'PutItem INV#*',
    'PutItem INVID#*',
  ],
  CheckoutPage: [CHECKOUT_COUNTER, 'GetItem CHK#*', 'GetItem INV#*'],
  CheckoutCardPayment: [
    CHECKOUT_COUNTER,
    ...INVOICE_ID_CHECK,
    'GetItem CHK#*',
    'GetItem ACCT#*',
    'GetItem INV#*',
    'UpdateItem DECL#*',
    ...CHECKOUT_CARD_PAYMENT,
  ],
  CheckoutStatus: [CHECKOUT_COUNTER, 'GetItem CHK#*'],
  GetCheckout: [READ_COUNTER, UNAUTHENTICATED_COUNTER, 'Query CHKTX#*', 'GetItem CHK#*'],
  OpenApiDocument: [],
  Fallback: [],
  payoutsWorker: ['GetItem WD#*', 'UpdateItem WD#*'],
  webhooksWorker: ['GetItem EVT#*', 'GetItem ACCT#*', 'GetItem DLV#*', 'UpdateItem DLV#*'],
  // The queued message: read (unsealed), claimed with its recipient checked not suppressed (issue 44), marked sent or not delivered (mail-sender.ts).
  mailWorker: ['GetItem MAIL#*', 'UpdateItem MAIL#*', 'ConditionCheckItem MAILSUP#*'],
  // SES's hard bounces and complaints: each address suppressed once (mail-feedback.ts).
  mailFeedbackWorker: ['PutItem MAILSUP#*'],
  StreamForwarder: [LEAVE_SWEEP_INDEX, LEAVE_SWEEP_INDEX_EVT, LEAVE_SWEEP_INDEX_MAIL],
  Sweep: ['Query GSI2 SWEEP#*', LEAVE_SWEEP_INDEX, LEAVE_SWEEP_INDEX_EVT, LEAVE_SWEEP_INDEX_MAIL],
  // Reads the origin secret only.
  EdgeOriginAuthorizer: [],
  CheckoutUpkeep: [
    'Query GSI2 CHKOPEN#*',
    'Query GSI2 CHKUNK#*',
    'Query GSI2 CARDUNK#*',
    // The rails upkeep: BolePix to expire, rails to close (shared/app/invoices/rail-upkeep.ts).
    'Query GSI2 RAILS#*',
    'GetItem CHK#*',
    'GetItem INV#*',
    'UpdateItem INV#*',
    'UpdateItem CARDATT#*',
    'DeleteItem CARDATT#*',
    ...CHECKOUT_CARD_PAYMENT,
    ...INVOICE_ID_CHECK,
  ],
  // Read only: the account ids (a Scan naming only the keys and accountId), then each account's shards and their LEDGER# partitions.
  // Sends the run's first messages only.
  Reconcile: [],
  // A page of the account index, then each account's shards and their LEDGER# partitions, read only.
  reconcileWorker: ['Query GSI1 ACCOUNTS#*', ...SHARDS_READ, 'Query LEDGER#*'],
};

const tableArn = JSON.stringify(getAtt(tableId, 'Arn'));
const indexArn = (index: string) => JSON.stringify({ 'Fn::Join': ['', [getAtt(tableId, 'Arn'), `/index/${index}`]] });

/** A function's table item statements (not the stream's), each action × partition-key pattern as one line. */
function tableAccess(id: string): string[] {
  const lines = new Set<string>();
  for (const statement of s.roleStatements(id)) {
    const actions = actionsOf([statement]).filter((a) => a.startsWith('dynamodb:') && !STREAM_ACTIONS.includes(a));
    if (actions.length === 0) continue;
    const resource = JSON.stringify(statement.Resource);
    const where =
      resource === tableArn ? '' : resource === indexArn('GSI1') ? 'GSI1 ' : resource === indexArn('GSI2') ? 'GSI2 ' : `UNEXPECTED RESOURCE ${resource} `;
    const leadingKeys = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
    const attributes = statement.Condition?.['ForAllValues:StringEquals']?.['dynamodb:Attributes'] as string[] | undefined;
    for (const action of actions) {
      for (const key of leadingKeys ?? [action === 'dynamodb:Scan' ? 'ALL ITEMS' : 'NO LEADING KEYS']) {
        lines.add(`${action.replace('dynamodb:', '')} ${where}${key}${attributes ? ` [${attributes.join(',')}]` : ''}`);
      }
    }
  }
  return [...lines].sort();
}

describe('least privilege', () => {
  it('grants each function exactly the table actions its code calls, on the partition keys it uses', () => {
    expect(Object.keys(EXPECTED_TABLE_ACCESS).sort()).toEqual([...ALL_FUNCTION_IDS].sort());
    const granted = Object.fromEntries(ALL_FUNCTION_IDS.map((id) => [id, tableAccess(id)]));
    const expected = Object.fromEntries(Object.entries(EXPECTED_TABLE_ACCESS).map(([id, lines]) => [id, [...new Set(lines)].sort()]));
    expect(granted).toEqual(expected);
  });

  it('lets no function batch-write, use PartiQL or a wildcard action on the table, batch-read but the balance shards and the events API its deliveries, nor Scan', () => {
    for (const id of ALL_FUNCTION_IDS) {
      const dynamo = actionsOf(s.roleStatements(id)).filter((a) => a.startsWith('dynamodb:'));
      expect(
        dynamo.filter((a) => /BatchWriteItem|PartiQL|\*/.test(a)),
        id,
      ).toEqual([]);
    }
    // BatchGetItem reads an account item and its balance shards (shared/adapters/dynamo/ledger-balance.ts), the events
    // API a page's deliveries (shared/adapters/dynamo/event-log.ts), and whatever creates an invoice its new ids' keys
    // (shared/adapters/dynamo/invoices.ts), nothing else.
    const batchReaders = ALL_FUNCTION_IDS.filter((id) => actionsOf(s.roleStatements(id)).includes('dynamodb:BatchGetItem'));
    const invoiceCreators = [
      routes.createPix.id,
      routes.createBoleto.id,
      routes.createCard.id,
      ...Object.values(methodChargeRoutes).map((route) => route.id),
      routes.checkoutEntry.id,
      'CheckoutCardPayment',
      checkoutUpkeepWorker.id,
    ];
    // …and the team page (PanelSettings) which of its pending invites' addresses are suppressed, and how their mails ended (issue 44).
    expect(batchReaders.sort()).toEqual(
      [
        routes.balance.id,
        routes.createWithdraw.id,
        `${queues.reconcile.id}Worker`,
        'PanelHome',
        'PanelMoney',
        'Events',
        'PanelSettings',
        ...invoiceCreators,
      ].sort(),
    );
    for (const id of batchReaders) {
      const batch = s.roleStatements(id).filter((st) => actionsOf([st]).includes('dynamodb:BatchGetItem'));
      expect(
        batch.map((st) => st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']),
        id,
      ).toEqual([
        id === 'Events'
          ? ['DLV#*']
          : id === 'PanelSettings'
            ? ['MAIL#*', 'MAILSUP#*']
            : invoiceCreators.includes(id)
              ? ['INV#*', 'INVID#*']
              : ['ACCT#*', 'BAL#*'],
      ]);
    }
    // The reconciliation pages through the account index (issue 25): no function scans the table.
    const scanners = ALL_FUNCTION_IDS.filter((id) => actionsOf(s.roleStatements(id)).includes('dynamodb:Scan'));
    expect(scanners).toEqual([]);
  });

  it("keeps the operator's account listing (shared/adapters/dynamo/ledger-reconcile.ts allAccountIds, the CLI's Scan) to the keys and accountId: Select stated, only those named", async () => {
    const sent: Record<string, unknown>[] = [];
    const db = {
      send: async (command: { input: Record<string, unknown> }) => {
        sent.push(command.input);
        return sent.length === 1
          ? { Items: [{ accountId: 'acct_b' }, { accountId: 'acct_a' }], LastEvaluatedKey: { PK: 'ACCT#acct_b', SK: 'ACCOUNT' } }
          : { Items: [{ accountId: 'acct_c' }] };
      },
    } as unknown as Db;
    expect(await allAccountIds(db, 'T')).toEqual(['acct_a', 'acct_b', 'acct_c']);
    expect(sent).toHaveLength(2);
    const names = (input: Record<string, unknown>): string[] => {
      const aliases = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
      const expressions = [input.FilterExpression, input.ProjectionExpression].filter((e): e is string => typeof e === 'string');
      return expressions.flatMap((expression) =>
        (expression.replace(/:[A-Za-z0-9_]+/g, ' ').match(/#?[A-Za-z_][A-Za-z0-9_]*/g) ?? [])
          .filter((word) => !/^(AND|OR|NOT|IN|BETWEEN|begins_with|contains|attribute_exists|attribute_not_exists|attribute_type|size)$/.test(word))
          .map((word) => aliases[word] ?? word),
      );
    };
    for (const input of sent) {
      expect(input.IndexName).toBeUndefined();
      expect(input.Select).toBe('SPECIFIC_ATTRIBUTES');
      expect(input.ProjectionExpression).toEqual(expect.any(String));
      expect(names(input).length).toBeGreaterThan(0);
      for (const name of names(input)) expect(RECONCILE_SCAN.attributes, name).toContain(name);
    }
    expect(sent[1]?.ExclusiveStartKey).toEqual({ PK: 'ACCT#acct_b', SK: 'ACCOUNT' });
  });

  it("scopes index access to the index used (never the table's /index/*) and every item statement but the Scan by dynamodb:LeadingKeys", () => {
    const statements = ALL_FUNCTION_IDS.flatMap((id) => s.roleStatements(id).map((st) => ({ id, st })));
    const itemStatements = statements.filter(({ st }) =>
      actionsOf([st]).some((a) => a.startsWith('dynamodb:') && !STREAM_ACTIONS.includes(a) && a !== 'dynamodb:Scan'),
    );
    expect(itemStatements.length).toBeGreaterThan(20);
    for (const { id, st } of itemStatements) {
      expect(JSON.stringify(st.Resource), id).not.toContain('/index/*');
      expect(st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'], id).toEqual(expect.any(Array));
    }
    const indexUsers = itemStatements.filter(({ st }) => JSON.stringify(st.Resource).includes('/index/')).map(({ id }) => id);
    expect(indexUsers.sort()).toEqual(
      [
        routes.listInvoices.id,
        routes.listWithdrawals.id,
        routes.webhookDeliveries.id,
        sweepWorker.id,
        checkoutUpkeepWorker.id,
        `${queues.reconcile.id}Worker`,
        'PanelMoney',
        'PanelSettings',
        'PanelWebhooks',
        'PanelAccess',
        'PanelRecovery',
        'Events',
      ].sort(),
    );
  });

  it('lets a read route count its calls only through the counter attributes, reading the account item back (issue 44: the gate asks ALL_NEW)', () => {
    const [update] = s.roleStatements(routes.balance.id).filter((st) => actionsOf([st]).includes('dynamodb:UpdateItem'));
    expect(update?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ACCT#*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'kv', 'disabled', 'rlLog', 'rlWin', 'rlCnt'] },
    });
    // Only the counters (the account item's, the RL# items, which hold nothing but their counter) are read back;
    // every other attribute-limited statement still refuses the whole item back.
    const limited = ALL_FUNCTION_IDS.flatMap((id) => s.roleStatements(id)).filter((st) => st.Condition?.['ForAllValues:StringEquals']?.['dynamodb:Attributes']);
    expect(limited.length).toBeGreaterThan(10);
    for (const st of limited) {
      const leading = (st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? []) as string[];
      const counter = leading.every((key) => key === 'ACCT#*' || key.startsWith('RL#'));
      expect(st.Condition?.StringEqualsIfExists, JSON.stringify(st)).toEqual(
        counter ? undefined : { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_OLD', 'UPDATED_NEW'] },
      );
    }
  });

  it('uses partition-key patterns that match the key builders, and only them', () => {
    const like = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const cases: [string, string, string][] = [
      [KEY.account, keys.account('acct_1').PK, keys.invoice('INV-ABC123').PK],
      [KEY.invoice, keys.invoice('INV-ABC123').PK, keys.invoiceIdReservation(42).PK],
      [KEY.invoiceId, keys.invoiceIdReservation(42).PK, keys.invoice('INV-ABC123').PK],
      [KEY.withdraw, keys.withdraw('WD-ABCDEFGHJKLM').PK, keys.delivery('evt_1').PK],
      [KEY.event, keys.event('evt_1').PK, keys.delivery('evt_1').PK],
      [KEY.delivery, keys.delivery('evt_1').PK, keys.event('evt_1').PK],
      [KEY.publicKey, keys.publicKey('PUB-1').PK, keys.account('acct_1').PK],
      [KEY.idempotency, keys.idempotency('acct_1', 'key-0001').PK, keys.account('acct_1').PK],
      [KEY.customerId, keys.customerIdReservation(7).PK, keys.customer('acct_1', 7).SK],
      [KEY.cep, keys.cep('01310100').PK, keys.account('acct_1').PK],
      [KEY.ipCounter('auth'), keys.ipCounter('auth', '203.0.113.9', 1).PK, keys.ipCounter('cep', '203.0.113.9', 1).PK],
      [KEY.ipCounter('checkout'), keys.ipCounter('checkout', '203.0.113.9', 1).PK, keys.ipCounter('auth', '203.0.113.9', 1).PK],
      // The sliding logs: one item per (class, IP); 'unauthenticated' is not under RL#auth#*.
      [KEY.ipCounter('auth'), ipLogKey('auth', '203.0.113.9').PK, ipLogKey('unauthenticated', '203.0.113.9').PK],
      [KEY.ipCounter('unauthenticated'), ipLogKey('unauthenticated', '2001:db8::1').PK, ipLogKey('public', '2001:db8::1').PK],
      [KEY.ipCounter('public'), ipLogKey('public', '203.0.113.9').PK, ipLogKey('checkout', '203.0.113.9').PK],
      // CHK# must not cover the tx_ref reservations (CHKTX#), nor CHKTX# the checkouts.
      [KEY.checkout, keys.checkout('CHK-ABCD2345').PK, keys.checkoutTxRef('acct_1', 'order-1').PK],
      [KEY.checkoutTxRef, keys.checkoutTxRef('acct_1', 'order-1').PK, keys.checkout('CHK-ABCD2345').PK],
      [KEY.checkoutTxRef, keys.checkoutSale('acct_1', 'order-1', 'x'.repeat(32)).PK, keys.checkout('CHK-ABCD2345').PK],
      // The card testing caps' logs (a card fingerprint's, a merchant's, a checkout's): nothing else under DECL#.
      [KEY.declines, keys.cardDeclines('f'.repeat(32)).PK, keys.account('acct_1').PK],
      [KEY.declines, keys.merchantDeclines('acct_1').PK, keys.delivery('evt_1').PK],
      // A checkout's log (issue 43) is under DECL#, never under the checkout's own CHK#.
      [KEY.declines, keys.checkoutDeclines('CHK-ABCD2345').PK, keys.checkout('CHK-ABCD2345').PK],
      [KEY.checkout, keys.checkout('CHK-ABCD2345').PK, keys.checkoutDeclines('CHK-ABCD2345').PK],
      [KEY.cardAttempt, keys.cardAttempt('k'.repeat(43)).PK, keys.cardDeclines('f'.repeat(32)).PK],
      [KEY.checkoutOpen, openPartitions('open')[0] ?? '', openPartitions('unknown')[0] ?? ''],
      [KEY.checkoutUnknown, openPartitions('unknown')[0] ?? '', keys.checkout('CHK-ABCD2345').PK],
      [KEY.invoiceList, keys.invoiceListPartition('acct_1'), keys.withdrawListPartition('acct_1')],
      [KEY.withdrawList, keys.withdrawListPartition('acct_1'), keys.deliveryListPartition('acct_1')],
      [KEY.deliveryList, keys.deliveryListPartition('acct_1'), keys.invoiceListPartition('acct_1')],
      // The Pix sweep's GSI2 partitions and the stream sweep's must not cover each other.
      [KEY.pixSweep, pixSweepPartitions[0] ?? '', 'SWEEP#0'],
      [KEY.sweep, 'SWEEP#0', pixSweepPartitions[0] ?? ''],
    ];
    for (const [pattern, matching, other] of cases) {
      expect(like(pattern).test(matching), `${pattern} ~ ${matching}`).toBe(true);
      expect(like(pattern).test(other), `${pattern} !~ ${other}`).toBe(false);
    }
    // Customers live in the account's partition: the account pattern covers them.
    expect(like(KEY.account).test(keys.customer('acct_1', 7).PK)).toBe(true);
  });

  it('refuses to synthesize a route without a row of table grants, or a public route granted table actions', () => {
    const unknown = { ...routes.balance, id: 'NoSuchRoute' } as AnyRoute;
    expect(() => routeGrants(unknown)).toThrow(/no table grants for NoSuchRoute/);
    const publicButReading = { ...routes.balance, access: 'none' } as AnyRoute;
    expect(() => routeGrants(publicButReading)).toThrow(/access 'none'/);
  });

  it("lets a Basic or Bearer route read the master key and the edge's origin secret, and only those", () => {
    expect(routes.authToken.auth).toBe('basic');
    const secretId = stack.getLogicalId(stack.masterKey.node.defaultChild as CfnSecret);
    const originId = stack.getLogicalId(stack.edge.originSecret.node.defaultChild as CfnSecret);
    const secretStatements = s.roleStatements(routes.authToken.id).filter((st) => actionsOf([st]).some((a) => a.startsWith('secretsmanager:')));
    expect(secretStatements.map((st) => st.Resource)).toEqual([{ Ref: secretId }, { Ref: originId }]);
    for (const st of secretStatements) expect(actionsOf([st]).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
  });

  it('lets both queue workers read the master key (webhook secrets and sealed Pix keys), and send to their own queue', () => {
    const secretId = stack.getLogicalId(stack.masterKey.node.defaultChild as CfnSecret);
    for (const worker of ['payoutsWorker', 'webhooksWorker']) {
      const statements = s.roleStatements(worker);
      const secret = statements.filter((st) => actionsOf([st]).includes('secretsmanager:GetSecretValue'));
      expect(
        secret.map((st) => st.Resource),
        worker,
      ).toEqual([{ Ref: secretId }]);
      expect(actionsOf(statements), worker).toContain('sqs:SendMessage');
    }
  });

  it("gives the public routes no table access and no secret but the edge's origin check", () => {
    expect(routes.openApiDocument).toMatchObject({ auth: 'none', access: 'none' });
    // X-Ray's two actions come with active tracing (every function).
    expect(actionsOf(s.roleStatements('Fallback')).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    const originId = stack.getLogicalId(stack.edge.originSecret.node.defaultChild as CfnSecret);
    const statements = s.roleStatements(routes.openApiDocument.id);
    expect(actionsOf(statements).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    expect(statements.filter((st) => actionsOf([st]).some((a) => a.startsWith('secretsmanager:'))).map((st) => st.Resource)).toEqual([{ Ref: originId }]);
  });

  it("attaches no managed policies and writes logs only to the function's own log group", () => {
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect((role.Properties as Json).ManagedPolicyArns).toBeUndefined();
    }
    for (const id of ALL_FUNCTION_IDS) {
      const logStatements = s.roleStatements(id).filter((st) => actionsOf([st]).some((a) => a.startsWith('logs:')));
      const logGroupRef = (s.functionProps(id).LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(logStatements.map((st) => st.Resource)).toEqual([getAtt(logGroupRef, 'Arn')]);
    }
  });

  it('lets the queue workers send only to their own queue when they do (and DLQ), and the forwarder send to the queues and its failure queue', () => {
    const sendTargets = (id: string) =>
      s
        .roleStatements(id)
        .filter((st: Statement) => actionsOf([st]).includes('sqs:SendMessage'))
        .map((st) => JSON.stringify(st.Resource))
        .sort();
    const queueArn = (construct: { node: { defaultChild?: unknown } }) => JSON.stringify(getAtt(s.logicalId(construct), 'Arn'));
    for (const def of queueList) {
      const own = stack.queues.get(def.id);
      if (!own) throw new Error(def.id);
      // Its DLQ too when the worker moves messages there itself (the payout worker, once its retry window is spent).
      expect(sendTargets(`${def.id}Worker`)).toEqual(
        [...(def.sendsToOwnQueue ? [queueArn(own.queue)] : []), ...(def.dlqUrlEnv ? [queueArn(own.dlq)] : [])].sort(),
      );
    }
    // The mail worker never sends to its queue (issue 44: least privilege): no SendMessage at all.
    expect(queues.mail.sendsToOwnQueue).toBe(false);
    expect(sendTargets('mailWorker')).toEqual([]);
    expect(queues.payouts.dlqUrlEnv).toBe('PAYOUT_DLQ_URL');
    const payoutEnv = (s.functionProps('payoutsWorker').Environment as { Variables: Json }).Variables;
    const payouts = stack.queues.get(queues.payouts.id);
    if (!payouts) throw new Error('no payouts queue');
    expect(payoutEnv.PAYOUT_DLQ_URL).toEqual({ Ref: s.logicalId(payouts.dlq) });
    // The service's queues only: SES alone sends to the mail feedback queue (issue 44), through its topic.
    const serviceSent = queueList.filter((def) => def.sentBy === 'service').map((def) => stack.queues.get(def.id)?.queue ?? stack);
    const forwarderTargets = [...serviceSent.map((q) => queueArn(q)), queueArn(stack.streamFailures.queue)].sort();
    expect(sendTargets(streamForwarder.id)).toEqual(forwarderTargets);
    expect(sendTargets(sweepWorker.id)).toEqual(serviceSent.map((q) => queueArn(q)).sort());
    expect(queueList.filter((def) => def.sentBy === 'ses').map((def) => def.id)).toEqual([queues.mailFeedback.id]);
    const feedbackQueue = queueArn(stack.queues.get(queues.mailFeedback.id)?.queue ?? stack);
    for (const id of ALL_FUNCTION_IDS) expect(sendTargets(id), id).not.toContain(feedbackQueue);
    for (const id of routeFunctions(routeList).keys())
      expect(
        actionsOf(s.roleStatements(id)).filter((a) => a.startsWith('sqs:')),
        id,
      ).toEqual([]);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no errors and no warnings', () => {
    const { app } = buildApp({ context: NO_BUNDLING, nag: false });
    const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
    const found = (severity: string) =>
      report.violations.filter((v) => v.severity === severity).map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(found('error')).toEqual([]);
    expect(found('warning')).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('passes as the synthesis validation plugin of the app, every acknowledgement with a reason', () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-nag-'));
    try {
      const { app, stack: checked } = buildApp({ context: NO_BUNDLING, outdir });
      // A violation would throw ValidationFailed here, as it fails `cdk synth`.
      const assembly = app.synth();
      const validation = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { conclusion: string }[] };
      expect(validation.pluginReports.filter((r) => r.conclusion !== 'success')).toEqual([]);

      const lid = (construct: { node: { defaultChild?: unknown } }) => {
        const element = construct.node.defaultChild as CfnElement;
        return Stack.of(element).getLogicalId(element);
      };
      type SynthesizedTemplate = { Resources: Record<string, { Type: string; Metadata?: Json; Properties?: Json }> };
      const suppressionsOf = (r: { Metadata?: Json }) =>
        (r.Metadata?.cdk_nag as { rules_to_suppress?: { id: string; reason: string }[] } | undefined)?.rules_to_suppress ?? [];
      // The top-level stack's template and each nested stack's, as `cdk synth` writes them (issue 44): the checks ran on every one.
      const nested = [...checked.serviceStacks.all().values()];
      expect(nested.length).toBeGreaterThan(1);
      const nestedTemplates = nested.map((n) => JSON.parse(readFileSync(path.join(outdir, n.templateFile), 'utf8')) as SynthesizedTemplate);
      // Each template as written, the acknowledgements' metadata included, within 700 KB of CloudFormation's 1 MB.
      for (const file of [checked.templateFile, ...nested.map((n) => n.templateFile)]) {
        expect(statSync(path.join(outdir, file)).size, file).toBeLessThan(700 * 1024);
      }
      for (const [i, t] of nestedTemplates.entries()) {
        expect(
          Object.values(t.Resources).some((r) => suppressionsOf(r).length > 0),
          nested[i]?.node.path,
        ).toBe(true);
      }
      const synthesized: SynthesizedTemplate = {
        Resources: Object.assign(
          {},
          (assembly.getStackByName(checked.stackName).template as SynthesizedTemplate).Resources,
          ...nestedTemplates.map((t) => t.Resources),
        ),
      };
      const suppressions = Object.values(synthesized.Resources).flatMap(suppressionsOf);
      expect(new Set(suppressions.map((x) => x.id.replace(/\[.*$/, '')))).toEqual(
        new Set([
          'AwsSolutions-L1',
          'AwsSolutions-IAM5',
          'AwsSolutions-SMG4',
          'AwsSolutions-APIG4',
          'AwsSolutions-SQS3',
          // The distribution (infra/cdk/edge.ts): no geo block, WAF by context, no logging bucket, the default certificate's TLS floor.
          'AwsSolutions-CFR1',
          'AwsSolutions-CFR2',
          'AwsSolutions-CFR3',
          'AwsSolutions-CFR4',
        ]),
      );
      for (const x of suppressions) expect(x.reason.trim().length, x.id).toBeGreaterThan(40);
      // The only IAM5 wildcards acknowledged: X-Ray's two actions on every function's role (active tracing; no
      // resource-level permission exists for them) and dynamodb:ListStreams' Resource "*" on the stream consumer's.
      const iam5 = Object.entries(synthesized.Resources).filter(([, r]) => suppressionsOf(r).some((x) => x.id.startsWith('AwsSolutions-IAM5')));
      const iam5Ids = new Set(
        iam5.flatMap(([, r]) =>
          suppressionsOf(r)
            .filter((x) => x.id.startsWith('AwsSolutions-IAM5'))
            .map((x) => x.id),
        ),
      );
      expect([...iam5Ids]).toEqual(['AwsSolutions-IAM5[Resource::*]']);
      // Each function's role and its policy (the acknowledgement covers the role's construct).
      const roles = [...checked.functions.values()].flatMap((f) => [lid(f.role), lid(f.role.node.findChild('DefaultPolicy'))]);
      expect(iam5.map(([id]) => id).sort()).toEqual(roles.sort());
      const wildcards = iam5.flatMap(([, r]) =>
        r.Type === 'AWS::IAM::Policy'
          ? ((r as { Properties?: { PolicyDocument: { Statement: Statement[] } } }).Properties?.PolicyDocument.Statement ?? [])
          : [],
      );
      expect([...new Set(actionsOf(wildcards.filter((st) => st.Resource === '*')))].sort()).toEqual([
        'dynamodb:ListStreams',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ]);
      // dynamodb:ListStreams on "*" for the stream forwarder alone.
      const listStreams = iam5.filter(([, r]) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties).includes('dynamodb:ListStreams'));
      const forwarder = checked.functions.get(streamForwarder.id);
      if (!forwarder) throw new Error('no forwarder');
      expect(listStreams.map(([id]) => id)).toEqual([lid(forwarder.role.node.findChild('DefaultPolicy'))]);
      // SQS3 (no DLQ) only where there is nothing to dead-letter: the DLQs themselves and the stream failure queue.
      const sqs3 = Object.entries(synthesized.Resources).filter(
        ([, r]) => r.Type === 'AWS::SQS::Queue' && suppressionsOf(r).some((x) => x.id === 'AwsSolutions-SQS3'),
      );
      const expectedSqs3 = [...[...checked.queues.values()].map((q) => q.dlq), checked.streamFailures.queue].map(lid);
      expect(sqs3.map(([id]) => id).sort()).toEqual(expectedSqs3.sort());
      // The wildcard index acknowledgement is gone with the wildcard.
      expect(JSON.stringify(suppressions)).not.toContain('/index/*');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it('states for each route without an authorizer what authorizes it instead', () => {
    expect(authorizationReason(routes.providerNotification)).toMatch(/provider's HMAC signature/);
    expect(authorizationReason(routes.providerPixCallback)).toMatch(/API Pix PSP.*path token.*read back from the PSP/);
    expect(authorizationReason(routes.providerPixCallback)).not.toMatch(/payer's link/);
    expect(authorizationReason(routes.boletoPage)).toMatch(/link's token/);
    for (const route of [routes.checkoutPage, routes.checkoutCard, routes.checkoutStatus]) expect(authorizationReason(route), route.id).toMatch(/link's token/);
    expect(authorizationReason(routes.checkoutEntry)).toMatch(/entry form.*public key.*signature.*per client IP/);
    expect(authorizationReason(routes.checkoutEntry)).not.toMatch(/link's token/);
    expect(authorizationReason(routes.getCheckout)).toMatch(/Bearer/);
    expect(authorizationReason(routes.openApiDocument)).toMatch(/serves no account data/);
    expect(authorizationReason(undefined)).toMatch(/\$default/);
    expect(authorizationReason(routes.authToken)).toMatch(/Basic/);
    expect(authorizationReason(routes.balance)).toMatch(/Bearer/);
    // A public route that reads data has no true reason until someone writes one.
    expect(() => authorizationReason({ ...routes.balance, auth: 'none' } as AnyRoute)).toThrow(/no authorization/);
    for (const route of routeList) expect(() => authorizationReason(route), route.id).not.toThrow();
  });

  it('does flag what it should (the checks are live)', () => {
    const app = new App();
    const bare = new Stack(app, 'Bare');
    new dynamodb.Table(bare, 'T', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(report.violations.map((v) => v.ruleName)).toContain('AwsSolutions-DDB3');
  });
});

describe('bundling', () => {
  it('bundles a handler into an ESM asset with its source map', { timeout: 60_000 }, () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-out-'));
    try {
      // One function, as the stack builds each of them: bundling all of them would take minutes on a busy machine.
      const app = new App({ outdir });
      const scratch = new Stack(app, 'BundleCheck');
      const fn = new ApiFunction(scratch, 'Fn', {
        handler: routes.authToken.handler,
        environment: {},
        logRetention: RetentionDays.ONE_YEAR,
        description: 'bundling check',
      });
      const assembly = app.synth();
      const fnId = scratch.getLogicalId(fn.fn.node.defaultChild as CfnFunction);
      const fnTemplate = assembly.getStackByName(scratch.stackName).template as { Resources: Record<string, { Properties: Json }> };
      const code = fnTemplate.Resources[fnId]?.Properties.Code as { S3Key: string; S3Bucket: unknown };
      expect(code.S3Bucket).toBeDefined();
      const hash = /^([0-9a-f]{64})\.zip$/.exec(code.S3Key)?.[1];
      expect(hash).toBeDefined();
      const assetDir = path.join(outdir, `asset.${hash}`);
      const bundle = readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
      expect(bundle.startsWith("import { createRequire } from 'module';")).toBe(true);
      expect(existsSync(path.join(assetDir, 'index.mjs.map'))).toBe(true);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe('table access module', () => {
  it('merges grants into few statements: one per resource, key set and attribute limit', async () => {
    const { grantTableAccess } = await import('../../infra/cdk/table-access');
    const { Role, ServicePrincipal } = await import('aws-cdk-lib/aws-iam');
    const scratch = new Stack(new App(), 'Scratch');
    const table = new dynamodb.Table(scratch, 'T', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
    const role = new Role(scratch, 'R', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    grantTableAccess(role, table, [
      { actions: ['GetItem', 'PutItem'], keys: ['A#*'] },
      { actions: ['PutItem'], keys: ['B#*'] },
      { actions: ['GetItem'], keys: ['B#*'] },
      { actions: ['Query'], keys: ['A#*#LIST'], index: 'GSI1' },
    ]);
    const policy = Object.values(Template.fromStack(scratch).findResources('AWS::IAM::Policy'))[0];
    const statements = (policy?.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement;
    expect(statements.map((st) => [actionsOf([st]), st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']])).toEqual(
      expect.arrayContaining([
        [
          ['dynamodb:GetItem', 'dynamodb:PutItem'],
          ['A#*', 'B#*'],
        ],
        [['dynamodb:Query'], ['A#*#LIST']],
      ]),
    );
    expect(statements).toHaveLength(2);
    expect(() => grantTableAccess(role, table, [{ actions: ['GetItem'], keys: ['A#*'], index: 'GSI1' }])).toThrow(/only Query/);
  });
});
