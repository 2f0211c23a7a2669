import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/routes';
import { queueList, queues, streamConsumerList } from '../../shared/queues';
import { buildApp, type PaymentGatewayStack } from '../../infra/stack';

const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

type Json = Record<string, unknown>;
type Statement = { Effect: string; Action: string | string[]; Resource?: unknown; Condition?: Json };

const { stack } = buildApp({ context: NO_BUNDLING, nag: false });
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties?: Json; Metadata?: Json }>;

function apiFunction(s: PaymentGatewayStack, id: string) {
  const fn = s.functions.get(id);
  if (!fn) throw new Error(`no function for ${id}`);
  return fn;
}

function functionProps(id: string): Json {
  const logicalId = stack.getLogicalId(apiFunction(stack, id).fn.node.defaultChild as CfnFunction);
  const props = resources[logicalId]?.Properties;
  if (!props) throw new Error(`no AWS::Lambda::Function ${logicalId}`);
  return props;
}

/** Every statement of every policy attached to the function's role. */
function roleStatements(id: string): Statement[] {
  const roleId = stack.getLogicalId(apiFunction(stack, id).role.node.defaultChild as CfnRole);
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => JSON.stringify(r.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((r) => (r.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
}

const actionsOf = (statements: Statement[]): string[] => statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

const ALL_FUNCTION_IDS = [...routeList.map((r) => r.id), 'Fallback', ...queueList.map((q) => `${q.id}Worker`), ...streamConsumerList.map((c) => c.id)];

describe('API routes and functions', () => {
  it('has one route per row of the route table plus $default', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Route', routeList.length + 1);
    for (const route of routeList) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}`, AuthorizationType: 'NONE' });
    }
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
  });

  it('sends every route to its own function', () => {
    const integrations = Object.values(template.findResources('AWS::ApiGatewayV2::Integration'));
    expect(integrations).toHaveLength(routeList.length + 1);
    const targets = new Set(integrations.map((i) => JSON.stringify((i.Properties as Json).IntegrationUri)));
    expect(targets.size).toBe(routeList.length + 1);
    for (const route of routeList) {
      const fnId = stack.getLogicalId(apiFunction(stack, route.id).fn.node.defaultChild as CfnFunction);
      expect(targets.has(JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] }))).toBe(true);
    }
  });

  it('runs one Node 22 arm64 function per route, the fallback, one per queue and one per stream consumer', () => {
    template.resourceCountIs('AWS::Lambda::Function', ALL_FUNCTION_IDS.length);
    const fns = Object.values(template.findResources('AWS::Lambda::Function'));
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 512, Handler: 'index.handler' });
    }
    for (const route of routeList) expect(functionProps(route.id).Timeout, route.id).toBe(10);
    for (const queue of queueList) {
      // A queue consumer's batch must fit in its timeout, and the timeout in the queue's visibility timeout.
      expect(functionProps(`${queue.id}Worker`).Timeout).toBe(queue.workerTimeoutSeconds);
      expect(queue.workerTimeoutSeconds).toBeLessThan(queue.visibilityTimeoutSeconds);
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
      ip: '$context.identity.sourceIp',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latency: '$context.responseLatency',
    });
    const values = Object.values(format).join(' ');
    expect(values).not.toMatch(/authorization|\$input|body|header/i);
  });

  it('gives every function its own log group with retention', () => {
    for (const id of ALL_FUNCTION_IDS) {
      const logGroupRef = (functionProps(id).LoggingConfig as { LogGroup: Json }).LogGroup;
      expect(logGroupRef).toHaveProperty('Ref');
      const logGroup = resources[(logGroupRef as { Ref: string }).Ref];
      expect(logGroup?.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup?.Properties?.RetentionInDays).toBeGreaterThan(0);
    }
    for (const logGroup of Object.values(template.findResources('AWS::Logs::LogGroup'))) {
      expect((logGroup.Properties as Json).RetentionInDays).toBeGreaterThan(0);
    }
  });

  it('sets the runtime environment and leaves the spec defaults to the code', () => {
    for (const id of ALL_FUNCTION_IDS) {
      const env = (functionProps(id).Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env).toMatchObject({
        TABLE_NAME: { Ref: stack.getLogicalId(stack.table.node.defaultChild as CfnTable) },
        MASTER_KEY_SECRET_ID: { Ref: stack.getLogicalId(stack.masterKey.node.defaultChild as CfnSecret) },
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'payment-gateway',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
      const names = Object.keys(env);
      expect(names).not.toContain('WEBHOOK_ALLOW_PRIVATE_HOSTS');
      expect(names.filter((n) => n.startsWith('RATE_LIMIT_') || n === 'TOKEN_TTL_SECONDS')).toEqual([]);
    }
  });
});

describe('storage and secrets', () => {
  it('has the single table with PITR, TTL, stream, deletion protection and GSI1', () => {
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
        ],
      },
    });
  });

  it('generates the master key secret and the provider credentials secret', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 2);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'masterKey', PasswordLength: 64, ExcludePunctuation: true },
    });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'simulated', PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it('outputs the API URL, the table name and the secret ARNs', () => {
    for (const name of ['ApiUrl', 'TableName', 'MasterKeySecretArn', 'ProviderSecretArn']) template.hasOutput(name, {});
  });

  it('lets only the notification route read the provider credentials, and gives every route its public base URL', () => {
    const providerSecret = JSON.stringify(stack.resolve(stack.providerCredentials.secretArn));
    const readers = ALL_FUNCTION_IDS.filter((id) => roleStatements(id).some((st) => JSON.stringify(st.Resource) === providerSecret));
    expect(readers).toEqual(['ProviderNotification']);
    for (const route of routeList) {
      const variables = (functionProps(route.id).Environment as { Variables: Json }).Variables;
      expect(variables.PUBLIC_BASE_URL, route.id).toBeDefined();
      expect(variables.PROVIDER_SECRET_ID, route.id).toBeDefined();
    }
  });
});

describe('least privilege', () => {
  const WRITES = ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:TransactWriteItems'];

  it('lets a read route read, and update only counter attributes of ACCT#/RL# items', () => {
    expect(routes.authToken.access).toBe('read');
    const statements = roleStatements(routes.authToken.id);
    const actions = actionsOf(statements);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem']));
    for (const write of WRITES) expect(actions).not.toContain(write);
    expect(actions.filter((a) => a.startsWith('dynamodb:') && a.includes('*'))).toEqual([]);

    const updates = statements.filter((s) => actionsOf([s]).includes('dynamodb:UpdateItem'));
    expect(updates).toHaveLength(1);
    expect(actionsOf(updates)).toEqual(['dynamodb:UpdateItem']);
    expect(updates[0]?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ACCT#*', 'RL#*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'kv', 'rlWin', 'rlCnt', 'ttl'] },
    });
  });

  it('lets a Basic or Bearer route read the master key, and only that secret', () => {
    expect(routes.authToken.auth).toBe('basic');
    const secretId = stack.getLogicalId(stack.masterKey.node.defaultChild as CfnSecret);
    const secretStatements = roleStatements(routes.authToken.id).filter((s) => actionsOf([s]).some((a) => a.startsWith('secretsmanager:')));
    expect(secretStatements).toHaveLength(1);
    expect(secretStatements[0]?.Resource).toEqual({ Ref: secretId });
    expect(actionsOf(secretStatements).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
  });

  it('gives the public routes no table and no secret access', () => {
    expect(routes.openApiDocument).toMatchObject({ auth: 'none', access: 'none' });
    for (const id of [routes.openApiDocument.id, 'Fallback']) {
      const actions = actionsOf(roleStatements(id));
      expect(actions.filter((a) => a.startsWith('dynamodb:') || a.startsWith('secretsmanager:'))).toEqual([]);
      expect(actions.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    }
  });

  it("attaches no managed policies and writes logs only to the function's own log group", () => {
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect((role.Properties as Json).ManagedPolicyArns).toBeUndefined();
    }
    for (const id of ALL_FUNCTION_IDS) {
      const logStatements = roleStatements(id).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
      const logGroupRef = (functionProps(id).LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(logStatements.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [logGroupRef, 'Arn'] }]);
    }
  });

  it('grants full item access to write routes (transactions are authorized by their parts)', async () => {
    const { grantTableAccess } = await import('../../infra/cdk/table-access');
    const { Role, ServicePrincipal } = await import('aws-cdk-lib/aws-iam');
    const scratch = new Stack(new App(), 'Scratch');
    const table = new dynamodb.Table(scratch, 'T', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
    const role = new Role(scratch, 'R', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    grantTableAccess(role, table, 'write');
    const policy = Object.values(Template.fromStack(scratch).findResources('AWS::IAM::Policy'))[0];
    const actions = actionsOf((policy?.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement);
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem']),
    );
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

      const synthesized = assembly.getStackByName(checked.stackName).template as { Resources: Record<string, { Metadata?: Json }> };
      const suppressions = Object.values(synthesized.Resources).flatMap(
        (r) => (r.Metadata?.cdk_nag as { rules_to_suppress?: { id: string; reason: string }[] } | undefined)?.rules_to_suppress ?? [],
      );
      expect(new Set(suppressions.map((s) => s.id.replace(/\[.*$/, '')))).toEqual(
        new Set(['AwsSolutions-L1', 'AwsSolutions-IAM5', 'AwsSolutions-SMG4', 'AwsSolutions-APIG4', 'AwsSolutions-SQS3']),
      );
      for (const s of suppressions) expect(s.reason.trim().length, s.id).toBeGreaterThan(40);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
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
      const { app, stack: bundled } = buildApp({ nag: false, outdir });
      const assembly = app.synth();
      const fnId = bundled.getLogicalId(apiFunction(bundled, routes.authToken.id).fn.node.defaultChild as CfnFunction);
      const fnTemplate = assembly.getStackByName(bundled.stackName).template as { Resources: Record<string, { Properties: Json }> };
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

describe('withdrawal workers', () => {
  it('feeds the payout and webhook queues from the table stream, filtered to INSERTs of withdraw and event items, with retries and a failure queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['withdraw', 'event'] } } } }) }] },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  it('consumes the payout queue with ReportBatchItemFailures; the queue has a DLQ with a depth alarm', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'] });
    const queue = stack.queues.get(queues.payouts.id);
    expect(queue).toBeDefined();
    template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: queues.payouts.maxReceiveCount },
      VisibilityTimeout: queues.payouts.visibilityTimeoutSeconds,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1 });
  });

  it('lets the stream forwarder send to the payout queue and do nothing with the table items', () => {
    const actions = actionsOf(roleStatements('StreamForwarder'));
    expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) expect(actions).not.toContain(write);
  });
});
