import { App, CfnOutput, NestedStack, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { flattenedTemplate, stackTemplates } from '../../infra/cdk/templates';

/** A parent with a queue, a nested stack whose role may send to it, an output of the parent naming the nested role. */
function scratch() {
  const app = new App();
  const parent = new Stack(app, 'Parent');
  const queue = new sqs.Queue(parent, 'Queue');
  const nested = new NestedStack(parent, 'Child');
  const role = new iam.Role(nested, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  queue.grantSendMessages(role);
  new CfnOutput(parent, 'RoleArn', { value: role.roleArn });
  const id = (element: sqs.CfnQueue | iam.CfnRole) => Stack.of(element).getLogicalId(element);
  return { parent, nested, queueId: id(queue.node.defaultChild as sqs.CfnQueue), roleId: id(role.node.defaultChild as iam.CfnRole) };
}

describe('the stacks of a deployment read as one template (infra/cdk/templates.ts)', () => {
  it('lists the top-level stack and each nested stack with its own template', () => {
    const { parent, nested, queueId, roleId } = scratch();
    const all = stackTemplates(parent);
    expect(all.map((t) => t.stack)).toEqual([parent, nested]);
    expect(Object.keys(all[0]?.template.Resources ?? {})).toContain(queueId);
    expect(Object.keys(all[1]?.template.Resources ?? {})).toContain(roleId);
    // As synthesized, the nested policy names the queue through a parameter, the parent's output the role through an output.
    expect(JSON.stringify(all[1]?.template.Resources)).not.toContain(queueId);
    expect(JSON.stringify(all[0]?.template.Outputs)).toContain('Outputs.');
  });

  it('puts back what crosses a stack boundary: a parameter as the parent’s reference, an output as its value', () => {
    const { parent, queueId, roleId } = scratch();
    const flat = flattenedTemplate(parent);
    const [policy] = Object.values(flat.Resources).filter((r) => r.Type === 'AWS::IAM::Policy');
    const document = policy?.Properties?.PolicyDocument as { Statement: { Resource: unknown }[] };
    expect(document.Statement.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
    expect(policy?.Properties?.Roles).toEqual([{ Ref: roleId }]);
    expect(flat.Outputs?.RoleArn?.Value).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
    // Every resource of both stacks, the nested stack's own resource included.
    expect(
      Object.values(flat.Resources)
        .map((r) => r.Type)
        .sort(),
    ).toEqual(['AWS::CloudFormation::Stack', 'AWS::IAM::Policy', 'AWS::IAM::Role', 'AWS::SQS::Queue'].sort());
  });
});
