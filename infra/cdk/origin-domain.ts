import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { OriginDomain } from './settings';

/**
 * CloudFront's own way in to the HTTP API (issue 44, item 8): a regional API Gateway custom domain
 * mapped to the `$default` stage, the API's execute-api endpoint disabled (infra/stack.ts). A request
 * to the execute-api address then gets API Gateway's 403 without reaching the stage, so it no longer
 * spends the stage throttle every merchant shares. With `mtls` the domain also refuses, during the TLS
 * handshake, every connection that does not present CloudFront's client certificate; without it the
 * domain answers anyone who knows its name (docs/decisions.md, "Issue 44: direct calls and the stage throttle").
 */
export class ApiOriginDomain extends Construct {
  readonly domainName: apigw.DomainName;
  readonly mapping: apigw.ApiMapping;
  /** The alias record of the name, when the settings give its hosted zone. */
  readonly record: route53.CfnRecordSet | undefined;

  constructor(scope: Construct, id: string, props: { settings: OriginDomain; api: apigw.HttpApi; stage: apigw.HttpStage }) {
    super(scope, id);
    const { settings } = props;
    const { mtls } = settings;
    this.domainName = new apigw.DomainName(this, 'DomainName', {
      domainName: settings.domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn),
      endpointType: apigw.EndpointType.REGIONAL,
      securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      ...(mtls
        ? {
            mtls: {
              bucket: s3.Bucket.fromBucketName(this, 'Truststore', mtls.truststore.bucket),
              key: mtls.truststore.key,
              ...(mtls.truststore.version ? { version: mtls.truststore.version } : {}),
            },
          }
        : {}),
    });
    this.mapping = new apigw.ApiMapping(this, 'Mapping', { api: props.api, domainName: this.domainName, stage: props.stage });
    this.record = settings.hostedZoneId
      ? new route53.CfnRecordSet(this, 'Alias', {
          hostedZoneId: settings.hostedZoneId,
          name: settings.domainName,
          type: 'A',
          aliasTarget: { dnsName: this.domainName.regionalDomainName, hostedZoneId: this.domainName.regionalHostedZoneId, evaluateTargetHealth: false },
        })
      : undefined;
  }
}
