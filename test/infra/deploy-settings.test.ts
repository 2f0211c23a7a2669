import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/http/routes';
import { functionIdOf } from '../../shared/http/route';
import { queues, streamForwarder } from '../../shared/platform/queues';
import { ALLOWED_RETENTION_DAYS, DEFAULT_SETTINGS, readSettings } from '../../infra/cdk/settings';
import { API_DOMAIN_CONTEXT, type Json, ORIGIN_MTLS_CONTEXT, Synthesized } from './synthesized';

const DOMAIN = 'api.pay.example.com';
const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
const WEB_ACL = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/payments/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';

const MAIL_FROM = 'painel@pay.example.com';
const settingsOf = (context: Record<string, unknown>) => readSettings(new App({ context }).node);

describe('deploy settings from CDK context', () => {
  it('defaults to the documented values', () => {
    expect(settingsOf({})).toEqual({
      throttle: { rate: 500, burst: 1000 },
      authThrottle: { rate: 10, burst: 20 },
      providerNotificationConcurrency: 50,
      streamForwarderConcurrency: 10,
      logRetention: 365,
      domain: undefined,
      production: false,
      // No recipient in the context: the deploy must name one (the AlarmEmail parameter).
      alarmRecipient: { kind: 'deploy-parameter' },
    });
    expect(DEFAULT_SETTINGS.logRetentionDays).toBe(365);
  });

  it('takes strings from `-c key=value` and numbers from cdk.json', () => {
    const settings = settingsOf({ throttleRate: '120.5', throttleBurst: 300, authThrottleRate: '5', authThrottleBurst: '8', logRetentionDays: '731' });
    expect(settings).toMatchObject({ throttle: { rate: 120.5, burst: 300 }, authThrottle: { rate: 5, burst: 8 }, logRetention: 731 });
    expect(settingsOf({ providerNotificationConcurrency: 'none', streamForwarderConcurrency: '4' })).toMatchObject({
      providerNotificationConcurrency: undefined,
      streamForwarderConcurrency: 4,
    });
  });

  it("accepts only CloudWatch Logs' retention periods", () => {
    expect(ALLOWED_RETENTION_DAYS).toEqual(expect.arrayContaining([1, 30, 365, 400, 3653]));
    expect(ALLOWED_RETENTION_DAYS).not.toContain(9999);
    expect(() => settingsOf({ logRetentionDays: 42 })).toThrow(/logRetentionDays=42: expected one of 1, 3, 5, 7, 14, 30/);
    expect(() => settingsOf({ logRetentionDays: 'forever' })).toThrow(/logRetentionDays/);
  });

  it('refuses nonsense with the key and what it expects', () => {
    expect(() => settingsOf({ throttleRate: '0' })).toThrow(/throttleRate="0": expected requests per second > 0/);
    expect(() => settingsOf({ throttleBurst: '2.5' })).toThrow(/throttleBurst/);
    expect(() => settingsOf({ authThrottleRate: 1000 })).toThrow(/must not exceed the stage default/);
    expect(() => settingsOf({ streamForwarderConcurrency: 0 })).toThrow(/streamForwarderConcurrency=0: expected a positive integer, or "none"/);
    expect(() => settingsOf({ domainName: DOMAIN })).toThrow(/domainName and certificateArn go together/);
    expect(() => settingsOf({ certificateArn: CERTIFICATE })).toThrow(/go together/);
    expect(() => settingsOf({ domainName: 'https://api.example.com', certificateArn: CERTIFICATE })).toThrow(/domainName=.*expected a host name/);
    expect(() => settingsOf({ domainName: DOMAIN, certificateArn: 'arn:aws:iam::123456789012:role/x' })).toThrow(/expected an ACM certificate ARN/);
    // CloudFront reads certificates in us-east-1 only, whatever the stack's region.
    expect(() => settingsOf({ domainName: DOMAIN, certificateArn: CERTIFICATE.replace('us-east-1', 'sa-east-1') })).toThrow(/in us-east-1/);
    expect(() => settingsOf({ webAclArn: WEB_ACL.replace('global', 'regional') })).toThrow(/webAclArn=.*scope CLOUDFRONT/);
    expect(settingsOf({ webAclArn: WEB_ACL }).webAclArn).toBe(WEB_ACL);
    expect(() => settingsOf({ mailFrom: 'Painel <painel@pay.example.com>' })).toThrow(/mailFrom=.*expected one email address/);
    expect(settingsOf({ mailFrom: MAIL_FROM }).mailFrom).toBe(MAIL_FROM);
  });

  it('a production deploy (production=true) requires the custom domain: the default certificate allows TLS 1.0, forbidden where cards are entered (issue 44)', () => {
    expect(() => settingsOf({ production: 'true' })).toThrow(/production=true needs domainName and certificateArn.*TLS 1\.0/);
    expect(() => settingsOf({ production: true })).toThrow(/must not take real cards/);
    expect(settingsOf({ production: 'true', domainName: DOMAIN, certificateArn: CERTIFICATE })).toMatchObject({
      production: true,
      domain: { domainName: DOMAIN },
    });
    expect(settingsOf({ production: 'false' }).production).toBe(false);
    expect(() => settingsOf({ production: 'yes' })).toThrow(/production="yes": expected true or false/);
  });
});

const withDomain = new Synthesized({
  domainName: DOMAIN,
  certificateArn: CERTIFICATE,
  webAclArn: WEB_ACL,
  throttleRate: '200',
  throttleBurst: '400',
  authThrottleRate: '4',
  authThrottleBurst: '6',
  providerNotificationConcurrency: '25',
  streamForwarderConcurrency: 'none',
  logRetentionDays: '731',
  mailFrom: MAIL_FROM,
});

describe('a production deploy: custom domain and context values', () => {
  const { template, stack } = withDomain;

  it('serves the API through CloudFront on the custom domain: its certificate, TLS 1.2 at least, the WAF web ACL of the context', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Aliases: [DOMAIN],
        ViewerCertificate: { AcmCertificateArn: CERTIFICATE, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
        WebACLId: WEB_ACL,
      },
    });
  });

  it('with the domain, no warning about the default certificate (issue 44)', () => {
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('payment-gateway:tls-default-certificate'));
    expect(warnings).toEqual([]);
  });

  it('puts https://<domainName> in every route function and the ApiUrl output, never the execute-api address', () => {
    for (const route of routeList) {
      const variables = (withDomain.functionProps(functionIdOf(route)).Environment as { Variables: Json }).Variables;
      expect(variables.PUBLIC_BASE_URL, route.id).toBe(`https://${DOMAIN}`);
    }
    const outputs = withDomain.json.Outputs ?? {};
    expect(outputs.ApiUrl?.Value).toBe(`https://${DOMAIN}`);
    expect(outputs.DomainTarget?.Value).toEqual({ 'Fn::GetAtt': [withDomain.logicalId(stack.edge.distribution), 'DomainName'] });
    expect(outputs.DomainHostedZoneId?.Value).toBe('Z2FDTNDATAQYW2');
    // The execute-api host appears nowhere a client or a stored link could see it (only as CloudFront's origin and in invoke-permission ARNs).
    const visible = JSON.stringify({ outputs, environments: withDomain.ofType('AWS::Lambda::Function').map(([, f]) => f.Properties?.Environment) });
    expect(visible).not.toMatch(/execute-api|apiEndpoint|HttpApi/);
  });

  it('applies the throttling, concurrency and retention values of the context', () => {
    const [[, stage] = ['', { Properties: {} }]] = withDomain.ofType('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      DefaultRouteSettings: { ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 },
      RouteSettings: { 'POST /api/auth': { ThrottlingRateLimit: 4, ThrottlingBurstLimit: 6 } },
    });
    expect(withDomain.functionProps(routes.providerNotification.id).ReservedConcurrentExecutions).toBe(25);
    expect(withDomain.functionProps(streamForwarder.id).ReservedConcurrentExecutions).toBeUndefined();
    for (const [id, logGroup] of withDomain.ofType('AWS::Logs::LogGroup')) expect(logGroup.Properties?.RetentionInDays, id).toBe(731);
  });
});

/** cfn-lint on this machine: on PATH, pip's user directory, or the Python module. */
function cfnLintCommand(): string[] | undefined {
  const candidates = [['cfn-lint'], [path.join(homedir(), '.local', 'bin', 'cfn-lint')], ['python3', '-m', 'cfnlint']];
  return candidates.find(([command, ...args]) => spawnSync(command ?? '', [...args, '--version'], { encoding: 'utf8' }).status === 0);
}

type LintMatch = { Level: string; Rule: { Id: string }; Message: string; Filename: string; Location: { Path: (string | number)[] } };

describe("the panel's mail sender (the mailFrom context value)", () => {
  const mailStatements = (s: Synthesized) => s.roleStatements(`${queues.mail.id}Worker`).filter((st) => JSON.stringify(st.Action).includes('ses:'));

  it('lets the mail worker send through SES from that address only, and names it in MAIL_FROM', () => {
    const statements = mailStatements(withDomain);
    expect(statements).toHaveLength(1);
    expect(statements[0]?.Action).toBe('ses:SendEmail');
    expect(statements[0]?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': MAIL_FROM } });
    const resources = JSON.stringify(statements[0]?.Resource);
    expect(resources).toContain(`:identity/${MAIL_FROM}`);
    expect(resources).toContain(':identity/pay.example.com');
    expect(resources).not.toContain('*');
    expect((withDomain.functionProps(`${queues.mail.id}Worker`).Environment as { Variables: Json }).Variables.MAIL_FROM).toBe(MAIL_FROM);
    // No other function may send mail.
    for (const id of withDomain.stack.functions.keys()) {
      if (id !== `${queues.mail.id}Worker`) expect(JSON.stringify(withDomain.roleStatements(id)), id).not.toContain('ses:');
    }
  });

  it('without it, no function may send mail and none has MAIL_FROM (messages are logged as skipped)', () => {
    const plain = new Synthesized();
    expect(mailStatements(plain)).toEqual([]);
    expect((plain.functionProps(`${queues.mail.id}Worker`).Environment as { Variables: Json }).Variables.MAIL_FROM).toBeUndefined();
  });
});

describe('cfn-lint over the synthesized templates', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cfn-lint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'finds no errors in any stack of the default deploy, the custom-domain one, the one with an origin domain and mTLS, nor the one with an API Pix PSP',
    { timeout: 300_000 },
    () => {
      const command = cfnLintCommand();
      if (!command) {
        throw new Error('cfn-lint is not installed: `python3 -m pip install cfn-lint` (or `pipx install cfn-lint`); .ci/run installs it on CI machines.');
      }
      const deploys: [string, Synthesized][] = [
        ['default', new Synthesized()],
        ['custom-domain', withDomain],
        // Issue 44, item 8: the API Gateway custom domain, its mapping and alias, CloudFront's OriginMtlsConfig.
        ['origin-mtls', new Synthesized({ ...API_DOMAIN_CONTEXT, ...ORIGIN_MTLS_CONTEXT })],
        [
          'api-pix',
          new Synthesized({
            apiPixBaseUrl: 'https://psp.example/api/v2',
            apiPixTokenUrl: 'https://auth.psp.example/oauth/token',
            apiPixClientId: 'gateway-client',
            apiPixPixKey: 'pix@loja.example',
            apiPixSecretName: 'payment-gateway/apipix',
          }),
        ],
      ];
      // Each stack's own template (the top-level one and every nested one, issue 44).
      const files = deploys.flatMap(([name, synthesized]) =>
        synthesized.templates.map(({ path: stackPath, template }) => {
          const file = path.join(dir, `${name}-${stackPath.replaceAll('/', '-')}.json`);
          writeFileSync(file, JSON.stringify(template));
          return file;
        }),
      );
      expect(files.length).toBeGreaterThan(deploys.length);
      const [executable, ...args] = command;
      // One run for every template (its start-up is most of its time). Exit status: bit 2 errors, 4 warnings, 8 notes.
      const run = spawnSync(executable ?? '', [...args, '--format', 'json', '--', ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(run.error).toBeUndefined();
      expect(run.stdout.trim().startsWith('['), run.stderr).toBe(true);
      const matches = JSON.parse(run.stdout) as LintMatch[];
      const describe = (m: LintMatch) => `${m.Rule.Id} ${path.basename(m.Filename)} ${m.Location.Path.join('/')}: ${m.Message}`;
      const warnings = matches.filter((m) => m.Level !== 'Error');
      if (warnings.length > 0) console.log(`cfn-lint: ${warnings.length} warnings/notes, e.g.\n${warnings.slice(0, 3).map(describe).join('\n')}`);
      expect(matches.filter((m) => m.Level === 'Error').map(describe)).toEqual([]);
      // Only warnings (4) and notes (8) may be left: no error (2), no failure to parse or run (1, 16, 32).
      expect([0, 4, 8, 12]).toContain(run.status);
    },
  );
});
