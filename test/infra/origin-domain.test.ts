import { App } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/stack';
import { DIRECT_CALLS_SPEND_THROTTLE, readSettings } from '../../infra/cdk/settings';
import {
  API_DOMAIN_CONTEXT as API_DOMAIN,
  CLIENT_CERTIFICATE,
  type Json,
  NO_BUNDLING,
  ORIGIN,
  ORIGIN_CERTIFICATE,
  ORIGIN_DOMAIN_CONTEXT,
  ORIGIN_MTLS_CONTEXT,
  Synthesized,
  ZONE,
} from './synthesized';

/**
 * Issue 44, item 8: a request sent straight to API Gateway is refused by the edge-origin authorizer,
 * but only after the stage throttle every merchant shares has counted it. With an origin domain the
 * execute-api endpoint is disabled (API Gateway's 403, no stage reached) and CloudFront's origin is the
 * domain; with origin mTLS the domain takes only connections presenting CloudFront's client certificate.
 */
const settingsOf = (context: Record<string, unknown>) => readSettings(new App({ context }).node);

type Origin = { DomainName: unknown; CustomOriginConfig: Json };

function distributionOf(s: Synthesized): { origins: Origin[]; dependsOn: string[] } {
  const resource = s.resources[s.logicalId(s.stack.edge.distribution)];
  const config = resource?.Properties?.DistributionConfig as { Origins: Origin[] } | undefined;
  if (!config) throw new Error('no distribution');
  return { origins: config.Origins, dependsOn: resource?.DependsOn ?? [] };
}

const apiProps = (s: Synthesized) => s.resources[s.logicalId(s.stack.api)]?.Properties ?? {};
const throttleWarnings = (s: Synthesized) =>
  Annotations.fromStack(s.stack)
    .findWarning('*', Match.stringLikeRegexp('payment-gateway:direct-calls-spend-throttle'))
    .map((w) => JSON.stringify(w.entry.data));

describe('the origin domain settings (originDomainName and the rest)', () => {
  it('reads the origin domain, its zone, and the client certificate with the truststore (bucket, key, version)', () => {
    expect(settingsOf({}).origin).toBeUndefined();
    expect(settingsOf({ ...API_DOMAIN, ...ORIGIN_DOMAIN_CONTEXT }).origin).toEqual({
      domainName: ORIGIN,
      certificateArn: ORIGIN_CERTIFICATE,
      hostedZoneId: undefined,
      mtls: undefined,
    });
    expect(settingsOf({ ...ORIGIN_MTLS_CONTEXT, originDomainName: 'Origin-7F3K.pay.example.com' }).origin).toEqual({
      domainName: ORIGIN,
      certificateArn: ORIGIN_CERTIFICATE,
      hostedZoneId: ZONE,
      mtls: {
        clientCertificateArn: CLIENT_CERTIFICATE,
        truststore: { bucket: 'pay-truststore', key: 'cloudfront-ca.pem', version: '3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY' },
      },
    });
    expect(settingsOf({ ...ORIGIN_MTLS_CONTEXT, originTruststoreUri: 's3://pay-truststore/ca/bundle.pem' }).origin?.mtls?.truststore).toEqual({
      bucket: 'pay-truststore',
      key: 'ca/bundle.pem',
      version: undefined,
    });
  });

  it('refuses a half-given or malformed origin with the key and what it expects', () => {
    expect(() => settingsOf({ originDomainName: ORIGIN })).toThrow(/originDomainName and originCertificateArn go together/);
    expect(() => settingsOf({ originClientCertificateArn: CLIENT_CERTIFICATE })).toThrow(/originDomainName and originCertificateArn go together/);
    expect(() => settingsOf({ ...ORIGIN_DOMAIN_CONTEXT, originDomainName: 'https://origin.example.com' })).toThrow(/originDomainName=.*expected a host name/);
    // The API's own name resolves to CloudFront: as CloudFront's origin it would loop.
    expect(() => settingsOf({ ...API_DOMAIN, ...ORIGIN_DOMAIN_CONTEXT, originDomainName: API_DOMAIN.domainName })).toThrow(/must differ from domainName/);
    expect(() => settingsOf({ ...ORIGIN_DOMAIN_CONTEXT, originCertificateArn: 'arn:aws:iam::123456789012:role/x' })).toThrow(
      /originCertificateArn=.*stack's region/,
    );
    expect(() => settingsOf({ ...ORIGIN_DOMAIN_CONTEXT, originHostedZoneId: 'example.com' })).toThrow(/originHostedZoneId=.*hosted zone id/);
    expect(() => settingsOf({ ...ORIGIN_DOMAIN_CONTEXT, originClientCertificateArn: CLIENT_CERTIFICATE })).toThrow(
      /originClientCertificateArn and originTruststoreUri go together/,
    );
    expect(() => settingsOf({ ...ORIGIN_MTLS_CONTEXT, originClientCertificateArn: CLIENT_CERTIFICATE.replace('us-east-1', 'sa-east-1') })).toThrow(
      /originClientCertificateArn=.*us-east-1/,
    );
    expect(() => settingsOf({ ...ORIGIN_MTLS_CONTEXT, originTruststoreUri: 'https://pay-truststore.s3.amazonaws.com/ca.pem' })).toThrow(
      /originTruststoreUri=.*expected s3:\/\/bucket\/key/,
    );
  });
});

describe('without an origin domain: the execute-api address is the origin', () => {
  const s = new Synthesized(API_DOMAIN);

  it('keeps the execute-api endpoint as CloudFront’s origin and creates no API Gateway domain', () => {
    expect(apiProps(s).DisableExecuteApiEndpoint).toBe(false);
    const [origin] = distributionOf(s).origins;
    expect(JSON.stringify(origin?.DomainName)).toContain('.execute-api.');
    expect(origin?.CustomOriginConfig.OriginMtlsConfig).toBeUndefined();
    s.template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    s.template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 0);
  });

  it('warns, on every synthesis, that direct calls spend the stage throttle every merchant shares', () => {
    const warnings = throttleWarnings(s);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(DIRECT_CALLS_SPEND_THROTTLE.executeApi.slice(0, 80));
    expect(warnings[0]).toMatch(/stage throttle .*every merchant shares.*originDomainName and originCertificateArn/);
  });
});

describe('with an origin domain, without origin mTLS', () => {
  const s = new Synthesized({ ...API_DOMAIN, ...ORIGIN_DOMAIN_CONTEXT });
  const origin = s.stack.originDomain;
  if (!origin) throw new Error('no origin domain');

  it('disables the execute-api endpoint and maps a regional TLS 1.2 custom domain to the $default stage', () => {
    expect(apiProps(s).DisableExecuteApiEndpoint).toBe(true);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: ORIGIN,
      DomainNameConfigurations: [{ CertificateArn: ORIGIN_CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
      MutualTlsAuthentication: Match.absent(),
    });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
      ApiId: { Ref: s.logicalId(s.stack.api) },
      DomainName: { Ref: s.logicalId(origin.domainName) },
      Stage: '$default',
    });
  });

  it('points CloudFront at the origin domain (never the execute-api address) once the mapping exists', () => {
    const { origins, dependsOn } = distributionOf(s);
    expect(origins.map((o) => o.DomainName)).toEqual([ORIGIN]);
    expect(JSON.stringify(origins)).not.toContain('execute-api');
    expect(origins[0]?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(origins[0]?.CustomOriginConfig.OriginMtlsConfig).toBeUndefined();
    expect(dependsOn).toContain(s.logicalId(origin.mapping));
  });

  it('without a hosted zone, writes no DNS record and names the target to point the origin name at', () => {
    s.template.resourceCountIs('AWS::Route53::RecordSet', 0);
    const outputs = s.json.Outputs ?? {};
    expect(outputs.OriginDomainTarget?.Value).toEqual({ 'Fn::GetAtt': [s.logicalId(origin.domainName), 'RegionalDomainName'] });
    expect(outputs.OriginDomainHostedZoneId?.Value).toEqual({ 'Fn::GetAtt': [s.logicalId(origin.domainName), 'RegionalHostedZoneId'] });
    expect(String(outputs.OriginDomainTarget?.Description)).toContain(ORIGIN);
  });

  it('warns that the origin domain itself still answers anyone, and names it', () => {
    const warnings = throttleWarnings(s);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(ORIGIN);
    expect(warnings[0]).toMatch(/answers any caller.*stage throttle.*originClientCertificateArn and originTruststoreUri/);
  });
});

describe('with an origin domain, origin mTLS and a hosted zone', () => {
  const s = new Synthesized({ ...API_DOMAIN, ...ORIGIN_MTLS_CONTEXT });
  const origin = s.stack.originDomain;
  if (!origin) throw new Error('no origin domain');

  it('requires a client certificate from the truststore on the origin domain, and CloudFront presents its own', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: ORIGIN,
      MutualTlsAuthentication: { TruststoreUri: 's3://pay-truststore/cloudfront-ca.pem', TruststoreVersion: '3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY' },
    });
    const [cloudfrontOrigin, ...others] = distributionOf(s).origins;
    expect(others).toEqual([]);
    expect(cloudfrontOrigin?.DomainName).toBe(ORIGIN);
    expect(cloudfrontOrigin?.CustomOriginConfig.OriginMtlsConfig).toEqual({ ClientCertificateArn: CLIENT_CERTIFICATE });
    expect(apiProps(s).DisableExecuteApiEndpoint).toBe(true);
  });

  it('writes the alias record in the zone, and CloudFront moves to the name only after it exists', () => {
    const record = origin.record;
    if (!record) throw new Error('no alias record');
    const domainId = s.logicalId(origin.domainName);
    s.template.hasResourceProperties('AWS::Route53::RecordSet', {
      HostedZoneId: ZONE,
      Name: ORIGIN,
      Type: 'A',
      AliasTarget: { DNSName: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] }, HostedZoneId: { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] } },
    });
    const recordId = s.stack.getLogicalId(record);
    expect(distributionOf(s).dependsOn).toEqual(expect.arrayContaining([recordId, s.logicalId(origin.mapping)]));
    expect(s.json.Outputs?.OriginDomainTarget).toBeUndefined();
  });

  it('gives no warning about direct calls: neither the execute-api address nor the origin domain takes them', () => {
    expect(throttleWarnings(s)).toEqual([]);
  });

  it('says in the direct-calls alarm that a call reaching the stage means the client key or truststore leaked', () => {
    const alarm = s.stack.alarms.get('Direct origin calls');
    const description = s.resources[s.logicalId(alarm as never)]?.Properties?.AlarmDescription;
    expect(String(description)).toContain(ORIGIN);
    expect(String(description)).toMatch(/client certificate.*leaked/);
  });

  it('passes cdk-nag AwsSolutions with no error and no warning', () => {
    const { app } = buildApp({ context: { ...NO_BUNDLING, ...API_DOMAIN, ...ORIGIN_MTLS_CONTEXT }, nag: false });
    const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
    const found = (severity: string) =>
      report.violations.filter((v) => v.severity === severity).map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(found('error')).toEqual([]);
    expect(found('warning')).toEqual([]);
  });
});
