import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/platform/config';
import { routeList, routes } from '../../shared/http/routes';
import { BUSINESS_METRICS, METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/platform/metrics';
import { checkoutUpkeepWorker, pixSweepWorker } from '../../shared/platform/queues';
import { API_PIX_CONTEXT, defaultApiPixTokenUrl, readSettings } from '../../infra/cdk/settings';
import { buildApp, PAYMENT_PROVIDER_PARAMETER, PIX_PROVIDER_OUTPUT } from '../../infra/stack';
import { actionsOf, type Json, NO_BUNDLING, STREAM_ACTIONS, Synthesized } from './synthesized';

/** What `cdk deploy -c apiPixBaseUrl=… -c apiPixClientId=… -c apiPixPixKey=… -c apiPixSecretName=…` gives. */
const PSP = {
  apiPixBaseUrl: 'https://psp.example/api/v2',
  apiPixClientId: 'gateway-client',
  apiPixPixKey: 'pix@loja.example',
  apiPixSecretName: 'payment-gateway/apipix',
};
const SECRET_RESOURCE_SUFFIX = `:secret:${PSP.apiPixSecretName}-??????`;

const settingsOf = (context: Record<string, unknown>) => readSettings(new App({ context }).node);
const variables = (s: Synthesized, id: string) => (s.functionProps(id).Environment as { Variables: Json }).Variables;
const outputs = (s: Synthesized) => s.json.Outputs ?? {};
const getAtt = (logicalId: string, attribute: string) => ({ 'Fn::GetAtt': [logicalId, attribute] });
/** The PSP variables of a function's environment (PAYMENT_PROVIDER and APIPIX_*). */
const pspVariables = (env: Json) => Object.keys(env).filter((name) => name === 'PAYMENT_PROVIDER' || name.startsWith('APIPIX_'));
/** Functions whose role may read the API Pix secret. */
const secretReaders = (s: Synthesized) =>
  [...s.stack.functions.keys()].filter((id) => s.roleStatements(id).some((st) => JSON.stringify(st.Resource).includes(SECRET_RESOURCE_SUFFIX)));

const PIX_PROVIDER_ROUTES = routeList.filter((r) => r.usesPixProvider).map((r) => r.id);

describe('API Pix context values (infra/cdk/settings.ts)', () => {
  it('reads the PSP from the four values (the token URL optional), and none without them', () => {
    expect(settingsOf({}).apiPix).toBeUndefined();
    expect(settingsOf({ ...PSP, apiPixBaseUrl: ` ${PSP.apiPixBaseUrl}/ ` }).apiPix).toEqual({
      baseUrl: PSP.apiPixBaseUrl,
      tokenUrl: undefined,
      clientId: PSP.apiPixClientId,
      pixKey: PSP.apiPixPixKey,
      secretName: PSP.apiPixSecretName,
    });
    expect(settingsOf({ ...PSP, apiPixTokenUrl: 'https://auth.psp.example/oauth/token' }).apiPix?.tokenUrl).toBe('https://auth.psp.example/oauth/token');
    expect(Object.values(API_PIX_CONTEXT).sort()).toEqual(['apiPixBaseUrl', 'apiPixClientId', 'apiPixPixKey', 'apiPixSecretName', 'apiPixTokenUrl']);
  });

  it('names every missing value once any is given', () => {
    expect(() => settingsOf({ apiPixBaseUrl: PSP.apiPixBaseUrl })).toThrow(/missing: apiPixClientId, apiPixPixKey, apiPixSecretName$/);
    expect(() => settingsOf({ ...PSP, apiPixSecretName: '' })).toThrow(/missing: apiPixSecretName$/);
    // Without the base URL the others would silently deploy the simulated provider: refused too.
    const { apiPixBaseUrl: _base, ...withoutBase } = PSP;
    expect(() => settingsOf(withoutBase)).toThrow(/missing: apiPixBaseUrl$/);
    expect(() => settingsOf({ apiPixTokenUrl: 'https://psp.example/oauth/token' })).toThrow(
      /missing: apiPixBaseUrl, apiPixClientId, apiPixPixKey, apiPixSecretName/,
    );
  });

  it('takes only https URLs, a secret name (not an ARN, not ending like an ARN suffix) and a Pix key of at most 77 characters', () => {
    for (const url of [
      'http://psp.example/api/v2',
      'psp.example/api/v2',
      'https://user:pw@psp.example/v2',
      'https://psp.example/v2?x=1',
      'https://psp.example/v2#f',
    ]) {
      expect(() => settingsOf({ ...PSP, apiPixBaseUrl: url }), url).toThrow(/CDK context apiPixBaseUrl=.*expected an https URL/);
    }
    expect(() => settingsOf({ ...PSP, apiPixTokenUrl: 'http://psp.example/oauth/token' })).toThrow(/CDK context apiPixTokenUrl=.*expected an https URL/);
    for (const name of ['arn:aws:secretsmanager:sa-east-1:123456789012:secret:apipix-AbC123', 'psp-apipix', 'apipix-AbC123', 'a b']) {
      expect(() => settingsOf({ ...PSP, apiPixSecretName: name }), name).toThrow(/CDK context apiPixSecretName=.*expected the name \(not the ARN\)/);
    }
    expect(settingsOf({ ...PSP, apiPixSecretName: 'prod/psp_apipix.v2' }).apiPix?.secretName).toBe('prod/psp_apipix.v2');
    expect(() => settingsOf({ ...PSP, apiPixPixKey: 'x'.repeat(78) })).toThrow(/CDK context apiPixPixKey=.*at most 77 characters/);
    expect(() => settingsOf({ ...PSP, apiPixClientId: 'a b' })).toThrow(/CDK context apiPixClientId/);
  });

  it('fails the synthesis with the name of a missing value', () => {
    const { apiPixPixKey: _key, ...withoutKey } = PSP;
    expect(() => buildApp({ context: { ...NO_BUNDLING, ...withoutKey }, nag: false })).toThrow(/missing: apiPixPixKey/);
  });

  it("outputs the token URL the functions use without apiPixTokenUrl (shared/platform/config.ts's default)", () => {
    const config = parseConfig({
      TABLE_NAME: 't',
      MASTER_KEY_SECRET_ID: 'm',
      PAYMENT_PROVIDER: 'apipix',
      APIPIX_BASE_URL: PSP.apiPixBaseUrl,
      APIPIX_CLIENT_ID: PSP.apiPixClientId,
      APIPIX_PIX_KEY: PSP.apiPixPixKey,
      APIPIX_SECRET_ID: PSP.apiPixSecretName,
    });
    expect(defaultApiPixTokenUrl(PSP.apiPixBaseUrl)).toBe('https://psp.example/oauth/token');
    expect(config.apiPix?.tokenUrl).toBe(defaultApiPixTokenUrl(PSP.apiPixBaseUrl));
  });
});

describe('a first deploy, without a PSP: the simulated provider serves Pix', () => {
  const s = new Synthesized();

  it('deploys no Pix sweep, no Pix anomalies alarm and no API Pix environment anywhere', () => {
    expect(s.stack.apiPix).toBeUndefined();
    expect(s.stack.functions.has(pixSweepWorker.id)).toBe(false);
    expect(Object.keys(s.resources).filter((id) => id.startsWith('PixSweep'))).toEqual([]);
    expect(s.stack.alarms.has('Pix anomalies')).toBe(false);
    expect(s.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties?.MetricName === BUSINESS_METRICS.pixAnomalies)).toEqual([]);
    for (const [id, fn] of s.ofType('AWS::Lambda::Function')) {
      expect(pspVariables((fn.Properties?.Environment as { Variables: Json }).Variables), id).toEqual([]);
    }
    expect(JSON.stringify(s.json)).not.toContain('APIPIX');
  });

  it('names the simulated provider in the PixProvider output, and outputs no PSP settings', () => {
    expect(outputs(s).PixProvider?.Value).toBe('simulated (no PSP configured: charges are not real)');
    expect(PIX_PROVIDER_OUTPUT.simulated).toMatch(/^simulated/);
    expect(Object.keys(outputs(s)).filter((name) => name.startsWith('ApiPix'))).toEqual([]);
  });

  it('still serves the callback route (the route table drives it), with no secret of a PSP', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /provider/{name}/notifications/{token}/pix' });
    expect(secretReaders(s)).toEqual([]);
  });
});

describe('a deploy with an API Pix PSP (the apiPix* context)', () => {
  const s = new Synthesized(PSP);
  const { stack, template } = s;
  const secretId = () => stack.resolve(stack.apiPix?.secret.secretArn) as unknown;

  it("keeps each stack under 250 of CloudFormation's 500 resources (issue 44), the PSP's sweep and alarms included", () => {
    for (const { path, template } of s.templates) expect(Object.keys(template.Resources).length, path).toBeLessThan(250);
  });

  it('gives the routes that use the Pix provider, and only them, the Pix sweep and the checkout upkeep, PAYMENT_PROVIDER=apipix and the APIPIX_* settings', () => {
    // A BolePix's Pix half: created with the boleto, removed after a boleto payment (notifications) or by the rails upkeep.
    // A merchant's cancellation (issue 46) withdraws a Pix charge or a BolePix's half at the PSP.
    expect(PIX_PROVIDER_ROUTES.sort()).toEqual(
      [
        routes.createPix.id,
        routes.checkoutEntry.id,
        routes.providerPixCallback.id,
        routes.createBoleto.id,
        routes.providerNotification.id,
        routes.cancelInvoice.id,
      ].sort(),
    );
    for (const id of [...PIX_PROVIDER_ROUTES, pixSweepWorker.id, checkoutUpkeepWorker.id]) {
      const env = variables(s, id);
      expect(env, id).toMatchObject({
        PAYMENT_PROVIDER: 'apipix',
        APIPIX_BASE_URL: PSP.apiPixBaseUrl,
        APIPIX_CLIENT_ID: PSP.apiPixClientId,
        APIPIX_PIX_KEY: PSP.apiPixPixKey,
      });
      expect(env.APIPIX_SECRET_ID, id).toEqual(secretId());
      // Without apiPixTokenUrl the functions use the standard's default.
      expect(pspVariables(env).sort(), id).toEqual(['APIPIX_BASE_URL', 'APIPIX_CLIENT_ID', 'APIPIX_PIX_KEY', 'APIPIX_SECRET_ID', 'PAYMENT_PROVIDER']);
    }
    // The secret's ARN without its random suffix (Secrets Manager finds the secret by it).
    expect(JSON.stringify(secretId())).toContain(`:secret:${PSP.apiPixSecretName}"`);
    // Card stays on the simulated provider: its function (and every other) keeps the default.
    const others = [...stack.functions.keys()].filter((id) => ![...PIX_PROVIDER_ROUTES, pixSweepWorker.id, checkoutUpkeepWorker.id].includes(id));
    expect(others).toEqual(expect.arrayContaining([routes.createCard.id]));
    for (const id of others) expect(pspVariables(variables(s, id)), id).toEqual([]);
  });

  it('lets exactly those functions read the API Pix secret (imported by name: GetSecretValue and DescribeSecret on <name>-??????)', () => {
    expect(secretReaders(s).sort()).toEqual([...PIX_PROVIDER_ROUTES, pixSweepWorker.id, checkoutUpkeepWorker.id].sort());
    for (const id of secretReaders(s)) {
      const statements = s.roleStatements(id).filter((st) => JSON.stringify(st.Resource).includes(SECRET_RESOURCE_SUFFIX));
      expect(actionsOf(statements).sort(), id).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
    }
    // The stack never creates or changes the operator's secret.
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
  });

  it('runs the Pix sweep every 5 minutes from one rule allowed to invoke it, retried twice, with its 120 s', () => {
    template.resourceCountIs('AWS::Events::Rule', 4);
    const fnArn = getAtt(s.functionLogicalId(pixSweepWorker.id), 'Arn');
    const rules = s.ofType('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties?.Targets).includes(JSON.stringify(fnArn)));
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0] ?? [];
    expect(rule?.Properties).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [{ Arn: fnArn, RetryPolicy: { MaximumRetryAttempts: 2 } }],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: fnArn,
      Principal: 'events.amazonaws.com',
      SourceArn: getAtt(ruleId ?? '', 'Arn'),
    });
    expect(pixSweepWorker.everyMinutes).toBe(5);
    expect(s.functionProps(pixSweepWorker.id).Timeout).toBe(pixSweepWorker.timeoutSeconds);
    expect(pixSweepWorker.timeoutSeconds).toBeLessThan(pixSweepWorker.everyMinutes * 60);
    // Outbound HTTPS to the PSP: the functions are not in a VPC.
    expect(s.functionProps(pixSweepWorker.id).VpcConfig).toBeUndefined();
    expect(s.functionProps(routes.createPix.id).VpcConfig).toBeUndefined();
  });

  it("alarms on the Pix sweep's errors in two 10-minute periods in a row, and on its throttles", () => {
    const onSweep = s
      .ofType('AWS::CloudWatch::Alarm')
      .filter(
        ([, a]) =>
          JSON.stringify(a.Properties?.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: s.functionLogicalId(pixSweepWorker.id) } }]),
      );
    const byMetric = Object.fromEntries(onSweep.map(([, a]) => [String(a.Properties?.MetricName), a.Properties]));
    expect(Object.keys(byMetric).sort()).toEqual(['Errors', 'Throttles']);
    expect(byMetric.Errors).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Period: 600,
      Threshold: 1,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(String(byMetric.Errors?.AlarmDescription)).toMatch(/Pix sweep.*provider reconcile --txid/);
    expect(stack.alarms.get('PixSweep errors')).toBeDefined();
    expect(stack.alarms.get('PixSweep throttles')).toBeDefined();
  });

  it('alarms on any Pix anomaly: PaymentGateway/PixAnomalies (service dimension) ≥ 1 in 5 minutes', () => {
    const alarms = s.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties?.MetricName === BUSINESS_METRICS.pixAnomalies);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: 'PixAnomalies',
      Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(stack.alarms.get('Pix anomalies')).toBeDefined();
  });

  it('sends every alarm, the new ones too, to the alarm topic', () => {
    const topic = { Ref: s.logicalId(stack.alarmTopic) };
    const alarms = s.ofType('AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(stack.alarms.size);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties?.AlarmActions, id).toEqual([topic]);
      expect(alarm.Properties?.OKActions, id).toEqual([topic]);
    }
  });

  it('grants the Pix sweep the Query of its GSI2 partitions, its statement cursor and the invoice moves of the callbacks, no more', () => {
    const tableArn = JSON.stringify(getAtt(s.logicalId(stack.table), 'Arn'));
    const lines = (id: string) =>
      s
        .roleStatements(id)
        .flatMap((st) => {
          const actions = actionsOf([st]).filter((a) => a.startsWith('dynamodb:') && !STREAM_ACTIONS.includes(a));
          const resource = JSON.stringify(st.Resource);
          const where = resource === tableArn ? '' : resource.includes('/index/GSI2') ? 'GSI2 ' : `UNEXPECTED ${resource} `;
          const keys = (st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? []) as string[];
          return actions.flatMap((a) => keys.map((k) => `${a.replace('dynamodb:', '')} ${where}${k}`));
        })
        .sort();
    const invoiceMoves = ['GetItem CHK#*', 'GetItem INV#*', 'PutItem EVT#*', 'PutItem LEDGER#*', 'UpdateItem BAL#*', 'UpdateItem CHK#*', 'UpdateItem INV#*'];
    // Its cursor in the PSP's statement of Pix received (issue 43): read, and moved by a conditional put.
    expect(lines(pixSweepWorker.id)).toEqual(['Query GSI2 PIXSWEEP#*', 'GetItem PIXSTMT#*', 'PutItem PIXSTMT#*', ...invoiceMoves].sort());
    // The callback route: the same moves, behind its per-IP counter of refused path tokens.
    expect(lines(routes.providerPixCallback.id)).toEqual(['UpdateItem RL#public#*', ...invoiceMoves].sort());
    // No master key and no queue for the sweep: it applies what the PSP holds, the stream carries the events.
    const sweepActions = actionsOf(s.roleStatements(pixSweepWorker.id));
    expect(sweepActions.filter((a) => a.startsWith('sqs:'))).toEqual([]);
    const masterKey = JSON.stringify(stack.resolve(stack.masterKey.secretArn));
    expect(s.roleStatements(pixSweepWorker.id).filter((st) => JSON.stringify(st.Resource) === masterKey)).toEqual([]);
  });

  it('outputs apipix as the PixProvider and the PSP settings the operator CLI reads with --stack', () => {
    const out = outputs(s);
    expect(out.PixProvider?.Value).toBe('apipix');
    expect(out.ApiPixBaseUrl?.Value).toBe(PSP.apiPixBaseUrl);
    expect(out.ApiPixTokenUrl?.Value).toBe('https://psp.example/oauth/token');
    expect(out.ApiPixClientId?.Value).toBe(PSP.apiPixClientId);
    expect(out.ApiPixPixKey?.Value).toBe(PSP.apiPixPixKey);
    expect(out.ApiPixSecretArn?.Value).toEqual(secretId());
  });

  it('shows the Pix sweep with the workers and PixAnomalies with the charges on the dashboard', () => {
    const [[, dashboard] = ['', { Type: '' }]] = s.ofType('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties?.DashboardBody);
    expect(body).toContain(s.functionLogicalId(pixSweepWorker.id));
    expect(body).toContain('PixAnomalies');
  });

  it('passes cdk-nag with no new acknowledgement', () => {
    const { app } = buildApp({ context: { ...NO_BUNDLING, ...PSP }, nag: false });
    const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
    expect(report.success).toBe(true);
    // `?` is no wildcard cdk-nag's IAM5 flags: the secret's grant needs no acknowledgement.
    expect(JSON.stringify(s.json)).not.toMatch(/AwsSolutions-IAM5\[Resource::arn/);
  });

  it('puts a given apiPixTokenUrl in the functions and the output', () => {
    const tokenUrl = 'https://auth.psp.example/oauth/token';
    const withToken = new Synthesized({ ...PSP, apiPixTokenUrl: tokenUrl });
    for (const id of [...PIX_PROVIDER_ROUTES, pixSweepWorker.id]) expect(variables(withToken, id).APIPIX_TOKEN_URL, id).toBe(tokenUrl);
    expect(outputs(withToken).ApiPixTokenUrl?.Value).toBe(tokenUrl);
  });
});

describe('the payment provider is an explicit deploy setting (issue 25)', () => {
  it('a parameter PaymentProvider with no default, whose only allowed value is the provider the template serves: a redeploy that lost the apiPix* context is refused', () => {
    for (const [context, provider] of [
      [{}, 'simulated'],
      [PSP, 'apipix'],
    ] as const) {
      const synthesized = new Synthesized(context);
      const parameter = (synthesized.template.toJSON() as { Parameters: Record<string, Json> }).Parameters[PAYMENT_PROVIDER_PARAMETER];
      expect(parameter, provider).toMatchObject({ Type: 'String', AllowedValues: [provider] });
      expect(parameter, provider).not.toHaveProperty('Default');
      expect(outputs(synthesized).DeployedPaymentProvider?.Value, provider).toEqual({ Ref: PAYMENT_PROVIDER_PARAMETER });
    }
  });
});
