import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { buildApp, type PaymentGatewayStack } from '../../infra/stack';

/** App context that skips bundling: the templates are the same, only the code assets are missing. */
export const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

export type Json = Record<string, unknown>;
export type Statement = { Effect: string; Action: string | string[]; Resource?: unknown; Condition?: Record<string, Record<string, unknown>> };
export type Resource = { Type: string; Properties?: Json; Metadata?: Json; DependsOn?: string[] };

/** One synthesized stack (cdk-nag off, no bundling) and lookups into its template. */
export class Synthesized {
  readonly stack: PaymentGatewayStack;
  readonly template: Template;
  readonly json: { Resources: Record<string, Resource>; Outputs?: Record<string, Json> };

  constructor(context: Record<string, unknown> = {}) {
    this.stack = buildApp({ context: { ...NO_BUNDLING, ...context }, nag: false }).stack;
    this.template = Template.fromStack(this.stack);
    this.json = this.template.toJSON() as Synthesized['json'];
  }

  get resources(): Record<string, Resource> {
    return this.json.Resources;
  }

  ofType(type: string): [string, Resource][] {
    return Object.entries(this.resources).filter(([, r]) => r.Type === type);
  }

  logicalId(construct: { node: { defaultChild?: unknown } }): string {
    return this.stack.getLogicalId(construct.node.defaultChild as CfnElement);
  }

  fn(id: string) {
    const fn = this.stack.functions.get(id);
    if (!fn) throw new Error(`no function for ${id}`);
    return fn;
  }

  functionLogicalId(id: string): string {
    return this.stack.getLogicalId(this.fn(id).fn.node.defaultChild as CfnFunction);
  }

  functionProps(id: string): Json {
    const props = this.resources[this.functionLogicalId(id)]?.Properties;
    if (!props) throw new Error(`no AWS::Lambda::Function for ${id}`);
    return props;
  }

  /** Every statement of every policy attached to the function's role. */
  roleStatements(id: string): Statement[] {
    const roleId = this.stack.getLogicalId(this.fn(id).role.node.defaultChild as CfnRole);
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
