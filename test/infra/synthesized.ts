import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { buildApp, type PaymentGatewayStack } from '../../infra/stack';
import { flattenedTemplate, type StackTemplate, stackTemplates } from '../../infra/cdk/templates';

/** App context that skips bundling: the templates are the same, only the code assets are missing. */
export const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

/** A custom domain for the API (CloudFront's), and CloudFront's origin domain with and without origin mTLS (issue 44, item 8). */
export const API_DOMAIN_CONTEXT = {
  domainName: 'api.pay.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
};
export const ORIGIN = 'origin-7f3k.pay.example.com';
export const ORIGIN_CERTIFICATE = 'arn:aws:acm:sa-east-1:123456789012:certificate/1a2b3c4d-4b5a-6978-8796-a5b4c3d2e1f0';
export const CLIENT_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/2b3c4d5e-4b5a-6978-8796-a5b4c3d2e1f0';
export const ZONE = 'Z0123456789ABCDEFGHIJ';
export const ORIGIN_DOMAIN_CONTEXT = { originDomainName: ORIGIN, originCertificateArn: ORIGIN_CERTIFICATE };
export const ORIGIN_MTLS_CONTEXT = {
  ...ORIGIN_DOMAIN_CONTEXT,
  originHostedZoneId: ZONE,
  originClientCertificateArn: CLIENT_CERTIFICATE,
  originTruststoreUri: 's3://pay-truststore/cloudfront-ca.pem?versionId=3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY',
};

export type Json = Record<string, unknown>;
export type Statement = { Effect: string; Action: string | string[]; Resource?: unknown; Condition?: Record<string, Record<string, unknown>> };
export type Resource = { Type: string; Properties?: Json; Metadata?: Json; DependsOn?: string[] };

/**
 * One synthesized deployment (cdk-nag off, no bundling) and lookups into it: `template` and `json` are
 * its stacks flattened into one template (infra/cdk/templates.ts: a nested stack's parameters and
 * outputs put back as the references they stand for), `templates` each stack's own.
 */
export class Synthesized {
  readonly stack: PaymentGatewayStack;
  readonly template: Template;
  readonly json: { Resources: Record<string, Resource>; Outputs?: Record<string, Json> };
  readonly templates: StackTemplate[];

  constructor(context: Record<string, unknown> = {}) {
    this.stack = buildApp({ context: { ...NO_BUNDLING, ...context }, nag: false }).stack;
    this.templates = stackTemplates(this.stack);
    this.json = flattenedTemplate(this.stack) as Synthesized['json'];
    this.template = Template.fromJSON(this.json);
  }

  get resources(): Record<string, Resource> {
    return this.json.Resources;
  }

  ofType(type: string): [string, Resource][] {
    return Object.entries(this.resources).filter(([, r]) => r.Type === type);
  }

  /** The logical id of a construct's resource in its own stack (unique across the stacks). */
  logicalId(construct: { node: { defaultChild?: unknown } }): string {
    const element = construct.node.defaultChild as CfnElement;
    return Stack.of(element).getLogicalId(element);
  }

  fn(id: string) {
    const fn = this.stack.functions.get(id);
    if (!fn) throw new Error(`no function for ${id}`);
    return fn;
  }

  functionLogicalId(id: string): string {
    return this.logicalId(this.fn(id).fn as { node: { defaultChild?: CfnFunction } });
  }

  functionProps(id: string): Json {
    const props = this.resources[this.functionLogicalId(id)]?.Properties;
    if (!props) throw new Error(`no AWS::Lambda::Function for ${id}`);
    return props;
  }

  /** Every statement of every policy attached to the function's role. */
  roleStatements(id: string): Statement[] {
    const roleId = this.logicalId(this.fn(id).role as { node: { defaultChild?: CfnRole } });
    return this.ofType('AWS::IAM::Policy')
      .map(([, r]) => r)
      .filter((r) => JSON.stringify(r.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((r) => (r.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
  }
}

export const actionsOf = (statements: Statement[]): string[] => statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

/** The DynamoDB actions on stream records (the event source's), as opposed to table items. */
export const STREAM_ACTIONS = ['dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];

/** The function ids of the stack: every route, the fallback, each queue's worker and each stream consumer. */
export function functionIds(s: Synthesized): string[] {
  return [...s.stack.functions.keys()];
}
