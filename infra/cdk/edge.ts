import { Annotations, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { viewerRequestSource } from '../edge/viewer-request';
import { EDGE_ORIGIN_HEADER } from '../../shared/http/edge-origin';
import type { ApiOriginDomain } from './origin-domain';
import { type CustomDomain, DEFAULT_CERTIFICATE_TLS, DIRECT_CALLS_SPEND_THROTTLE, type OriginDomain } from './settings';

/** The JSON key of the origin secret (shared/adapters/secrets/edge-origin.ts reads it). */
export const ORIGIN_SECRET_KEY = 'originVerify';

/**
 * The statuses CloudFront caches for the default error-caching TTL (10 s) when answered to a GET or a
 * HEAD, whatever the cache policy says: without an error response of TTL 0 for each, one caller's 403
 * `account_disabled` or 503 could be answered to other callers of the same path (the cache key under
 * CachingDisabled leaves out the Authorization header and the query).
 */
export const CLOUDFRONT_CACHED_ERROR_STATUSES = [400, 403, 404, 405, 414, 500, 501, 502, 503, 504] as const;

/** The hosted zone of every CloudFront distribution, for a Route 53 alias record. */
export const CLOUDFRONT_HOSTED_ZONE_ID = 'Z2FDTNDATAQYW2';

export type ApiEdgeProps = {
  api: apigw.HttpApi;
  domain: CustomDomain | undefined;
  /** An AWS WAF web ACL (scope CLOUDFRONT, created in us-east-1) to attach; undefined: none. */
  webAclArn: string | undefined;
  /**
   * The API's origin custom domain (issue 44, item 8) and its settings: CloudFront's origin instead of
   * the execute-api address, with CloudFront's client certificate when `settings.mtls` is set; undefined:
   * the execute-api address is the origin.
   */
  origin: { settings: OriginDomain; domain: ApiOriginDomain } | undefined;
};

/**
 * CloudFront in front of the HTTP API: the one public address of the deployed stack. Nothing is
 * cached (every answer is per caller); every method, header, cookie and query string goes on to API
 * Gateway. Its viewer-request function (infra/edge/viewer-request.ts) answers 413 and 431 in the
 * spec's shape and names the viewer's address; the origin gets a generated secret in
 * `x-origin-verify` so the functions refuse whatever reaches API Gateway around CloudFront.
 */
export class ApiEdge extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly originSecret: secretsmanager.Secret;
  readonly viewerRequest: cloudfront.Function;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'Payment gateway: the value CloudFront adds to each request it forwards to API Gateway (x-origin-verify)',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: ORIGIN_SECRET_KEY, passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront reads this value when the stack deploys (an origin custom header): a rotation outside CloudFormation would refuse every request until the next deploy. Rotate by replacing the secret in a deploy (docs/runbook.md).',
    });
    this.viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      comment: 'Payment gateway: 413/431 in the API error shape, viewer address for the per-IP limits',
      code: cloudfront.FunctionCode.fromInline(viewerRequestSource()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    const originHost = props.origin?.settings.domainName ?? `${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const origin = new origins.HttpOrigin(originHost, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // API Gateway ends an integration at 30 s; CloudFront waits as long (its default is 30 s too).
      readTimeout: Duration.seconds(30),
      customHeaders: { [EDGE_ORIGIN_HEADER]: this.originSecret.secretValueFromJson(ORIGIN_SECRET_KEY).unsafeUnwrap() },
    });
    const domain = props.domain;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Payment gateway API',
      defaultBehavior: {
        origin,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: false,
        functionAssociations: [{ function: this.viewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        // HSTS on every answer (issue 31): browsers (the checkout's payers) never use plain http for this host again.
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
          comment: 'Payment gateway: Strict-Transport-Security on every answer',
          securityHeadersBehavior: {
            strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
          },
        }),
      },
      // Never cache an error: each one is the caller's own (no response page: the origin's body goes through).
      errorResponses: CLOUDFRONT_CACHED_ERROR_STATUSES.map((httpStatus) => ({ httpStatus, ttl: Duration.seconds(0) })),
      // Merchants and payers are in Brazil: South American edges are in the "all" class only.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
    });
    this.acknowledgeNagFindings(domain !== undefined, props.webAclArn !== undefined);
    // Issue 44, finding 6: loud, in every synthesis without a domain (a production deploy refuses it: settings.ts).
    if (!domain) Annotations.of(this.distribution).addWarningV2('payment-gateway:tls-default-certificate', DEFAULT_CERTIFICATE_TLS);
    this.useOriginDomain(props.origin);
  }

  /**
   * Issue 44, item 8: with an origin domain, CloudFront moves to it only once its API mapping (and its
   * alias record, when the stack writes it) exists, and presents its client certificate when the domain
   * requires one (origin mTLS: a CloudFormation property the L2 origin does not take yet). Without mTLS,
   * or without the domain, the synthesis warns that direct calls still spend the stage throttle.
   */
  private useOriginDomain(origin: ApiEdgeProps['origin']): void {
    if (origin) {
      this.distribution.node.addDependency(origin.domain.mapping);
      if (origin.domain.record) this.distribution.node.addDependency(origin.domain.record);
    }
    const mtls = origin?.settings.mtls;
    if (mtls) {
      (this.distribution.node.defaultChild as cloudfront.CfnDistribution).addPropertyOverride(
        'DistributionConfig.Origins.0.CustomOriginConfig.OriginMtlsConfig.ClientCertificateArn',
        mtls.clientCertificateArn,
      );
      return;
    }
    Annotations.of(this.distribution).addWarningV2(
      'payment-gateway:direct-calls-spend-throttle',
      origin ? `${DIRECT_CALLS_SPEND_THROTTLE.originWithoutMtls} (${origin.settings.domainName})` : DIRECT_CALLS_SPEND_THROTTLE.executeApi,
    );
  }

  private acknowledgeNagFindings(customDomain: boolean, waf: boolean): void {
    const acknowledge = (id: string, reason: string) => Validations.of(this.distribution).acknowledge({ id, reason });
    acknowledge(
      'AwsSolutions-CFR1',
      'An API for Brazilian merchants and their payers, who may travel: no country is blocked at the edge; access is by API keys and signed links.',
    );
    if (!waf)
      acknowledge(
        'AwsSolutions-CFR2',
        'A CLOUDFRONT-scope web ACL lives in us-east-1, outside this stack: pass its ARN as the webAclArn context value to attach one. Per-IP and per-account limits are enforced by the API itself (spec 8).',
      );
    acknowledge(
      'AwsSolutions-CFR3',
      "Every request that reaches the API is in API Gateway's access log and the functions' logs; the edge's own refusals (413/431) show in the distribution's 4xx metrics. A logging bucket would hold client addresses and URLs without adding an answer the on-call needs.",
    );
    if (!customDomain)
      acknowledge(
        'AwsSolutions-CFR4',
        'Without a custom domain the distribution serves the default *.cloudfront.net certificate, whose TLS floor CloudFront fixes; with domainName and certificateArn set the floor is TLS 1.2 (TLSv1.2_2021).',
      );
  }
}
