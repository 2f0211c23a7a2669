import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { viewerRequestSource } from '../../infra/edge/viewer-request';
import { ORIGIN_SECRET_KEY } from '../../infra/cdk/edge';
import { EDGE_ORIGIN_HEADER } from '../../shared/http/edge-origin';
import { routeList } from '../../shared/http/routes';
import { functionIdOf, routeFunctions } from '../../shared/http/route';
import { type Json, Synthesized } from './synthesized';

/**
 * Issue 17, item 7, in the deployed stack: CloudFront stands in front of the HTTP API so that 413 and
 * 431 are answered in the spec's shape (HTTP APIs have no gateway responses), and the per-IP limits
 * still count callers. These assertions hold the distribution to that.
 */
const s = new Synthesized();
const { stack, template } = s;
const distributionId = s.logicalId(stack.edge.distribution);
const secretRef = { Ref: s.logicalId(stack.edge.originSecret) };

type Distribution = {
  DistributionConfig: {
    DefaultCacheBehavior: Json & { FunctionAssociations: { EventType: string; FunctionARN: unknown }[] };
    Origins: (Json & { OriginCustomHeaders: { HeaderName: string; HeaderValue: unknown }[]; CustomOriginConfig: Json })[];
    CacheBehaviors?: unknown[];
  };
};

function distribution(): Distribution {
  const props = s.resources[distributionId]?.Properties;
  if (!props) throw new Error('no distribution');
  return props as unknown as Distribution;
}

describe('the CloudFront edge in front of the API', () => {
  it('runs the edge function, from the source the tests run, on every viewer request', () => {
    const [[functionId, fn] = ['', { Properties: {} }], ...others] = s.ofType('AWS::CloudFront::Function');
    expect(others).toHaveLength(0);
    expect(fn.Properties).toMatchObject({ AutoPublish: true, FunctionCode: viewerRequestSource(), FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    const { DefaultCacheBehavior, CacheBehaviors } = distribution().DistributionConfig;
    expect(CacheBehaviors).toBeUndefined();
    expect(DefaultCacheBehavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }]);
  });

  it('forwards every method, header, cookie and query string to API Gateway over HTTPS and caches nothing', () => {
    const behavior = distribution().DistributionConfig.DefaultCacheBehavior;
    expect(behavior).toMatchObject({
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      ViewerProtocolPolicy: 'https-only',
      // The managed policies CachingDisabled and AllViewerExceptHostHeader.
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
    });
    const [origin, ...others] = distribution().DistributionConfig.Origins;
    expect(others).toHaveLength(0);
    expect(JSON.stringify(origin?.DomainName)).toContain(s.logicalId(stack.api));
    expect(JSON.stringify(origin?.DomainName)).toContain('.execute-api.');
    expect(origin?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'], OriginReadTimeout: 30 });
  });

  it('caches no error: every status CloudFront would cache for 10 s answers with ErrorCachingMinTTL 0 and no response page (issue 25)', () => {
    const config = distribution().DistributionConfig as { CustomErrorResponses?: Json[] };
    const responses = config.CustomErrorResponses ?? [];
    expect(responses.map((r) => r.ErrorCode).sort()).toEqual([400, 403, 404, 405, 414, 500, 501, 502, 503, 504]);
    for (const response of responses) {
      expect(response, String(response.ErrorCode)).toEqual({ ErrorCode: response.ErrorCode, ErrorCachingMinTTL: 0 });
    }
  });

  it('adds Strict-Transport-Security (a year, subdomains) to every answer through the edge (issue 31)', () => {
    const behavior = distribution().DistributionConfig.DefaultCacheBehavior as Json & { ResponseHeadersPolicyId?: { Ref: string } };
    const policyId = behavior.ResponseHeadersPolicyId?.Ref ?? '';
    const policy = s.resources[policyId]?.Properties as { ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Json } } | undefined;
    expect(policy?.ResponseHeadersPolicyConfig.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Override: true },
    });
  });

  it('adds the generated origin secret to each forwarded request, by reference (never in the template)', () => {
    const [origin] = distribution().DistributionConfig.Origins;
    expect(origin?.OriginCustomHeaders).toEqual([
      { HeaderName: EDGE_ORIGIN_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', secretRef, `:SecretString:${ORIGIN_SECRET_KEY}::}}`]] } },
    ]);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { GenerateStringKey: ORIGIN_SECRET_KEY, PasswordLength: 64 },
    });
  });

  it('gives every route function and the edge-origin authorizer the origin secret to check, and nothing else reads it', () => {
    const secret = JSON.stringify(stack.resolve(stack.edge.originSecret.secretArn));
    for (const route of routeList) {
      expect((s.functionProps(functionIdOf(route)).Environment as { Variables: Json }).Variables.EDGE_ORIGIN_SECRET_ID, route.id).toEqual(secretRef);
    }
    const readers = [...stack.functions.keys()].filter((id) => s.roleStatements(id).some((st) => JSON.stringify(st.Resource) === secret));
    expect(readers.sort()).toEqual([...routeFunctions(routeList).keys(), 'EdgeOriginAuthorizer'].sort());
  });

  it("publishes the distribution's address as the API URL and the functions' base URL", () => {
    const address = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    template.hasOutput('ApiUrl', { Value: address });
    for (const route of routeList)
      expect((s.functionProps(functionIdOf(route)).Environment as { Variables: Json }).Variables.PUBLIC_BASE_URL, route.id).toEqual(address);
  });
});

describe('TLS without a custom domain (issue 44, finding 6)', () => {
  it('the synthesis warns loudly: the default *.cloudfront.net certificate allows TLS 1.0, so this deploy must not take real cards', () => {
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('must not take real cards'));
    expect(warnings.length).toBe(1);
    expect(JSON.stringify(warnings[0]?.entry.data)).toContain('payment-gateway:tls-default-certificate');
    expect(JSON.stringify(warnings[0]?.entry.data)).toMatch(/TLS 1\.0 and 1\.1, which PCI DSS forbids/);
  });
});
