import { type CfnElement, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

/** A synthesized CloudFormation template, as far as the readers of this module look into it. */
export type CfnTemplate = {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown>; DependsOn?: string[] }>;
  Parameters?: Record<string, Record<string, unknown>>;
  Outputs?: Record<string, { Value?: unknown } & Record<string, unknown>>;
  Conditions?: Record<string, unknown>;
  [section: string]: unknown;
};

/** One stack of the deployment and its template: the top-level stack first, then each nested stack below it. */
export type StackTemplate = { stack: Stack; path: string; template: CfnTemplate };

function templateOf(stack: Stack): CfnTemplate {
  return Template.fromStack(stack).toJSON() as CfnTemplate;
}

/** The nested stacks whose parent is `stack`, by the logical id of their AWS::CloudFormation::Stack resource in it. */
function childrenOf(stack: Stack): Map<string, NestedStack> {
  const children = new Map<string, NestedStack>();
  for (const construct of stack.node.findAll()) {
    if (NestedStack.isNestedStack(construct) && construct.nestedStackParent === stack && construct.nestedStackResource) {
      children.set(stack.getLogicalId(construct.nestedStackResource as CfnElement), construct);
    }
  }
  return children;
}

/** Every stack of the deployment with its own template (synthesizes the app once, no files kept). */
export function stackTemplates(stack: Stack): StackTemplate[] {
  const all: StackTemplate[] = [{ stack, path: stack.node.path, template: templateOf(stack) }];
  for (const child of childrenOf(stack).values()) all.push(...stackTemplates(child));
  return all;
}

/**
 * The deployment as one template: the resources of every stack in one map (logical ids are unique
 * across them, or this throws), each reference that crosses a stack boundary put back as it would be
 * written in one stack: a nested stack's parameter becomes the value its parent passes (a `Ref` or
 * `Fn::GetAtt` of the parent's resource), a parent's `Fn::GetAtt [<nested stack>, Outputs.X]` becomes
 * that output's value. What reads policies, environments and alarms reads this; what counts per stack
 * (CloudFormation's limits) reads `stackTemplates`.
 */
export function flattenedTemplate(stack: Stack): CfnTemplate {
  const top = templateOf(stack);
  const merged: CfnTemplate = { ...top, Resources: {}, Conditions: { ...top.Conditions } };
  const owner = new Map<string, string>();
  const visit = (current: Stack, template: CfnTemplate, parameterValues: Record<string, unknown>): Record<string, unknown> => {
    const children = childrenOf(current);
    const outputs = new Map<string, Record<string, unknown>>();
    const outputsOf = (id: string): Record<string, unknown> => {
      const known = outputs.get(id);
      if (known) return known;
      const child = children.get(id);
      if (!child) throw new Error(`${current.node.path}: ${id} is not a nested stack`);
      const passed = map(template.Resources[id]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
      const childOutputs = visit(child, templateOf(child), passed);
      outputs.set(id, childOutputs);
      return childOutputs;
    };
    const map = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(map);
      if (!value || typeof value !== 'object') return value;
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object);
      if (keys.length === 1 && typeof object.Ref === 'string' && object.Ref in parameterValues && template.Parameters?.[object.Ref]) {
        return parameterValues[object.Ref];
      }
      const getAtt = object['Fn::GetAtt'];
      if (keys.length === 1 && Array.isArray(getAtt) && children.has(String(getAtt[0])) && String(getAtt[1]).startsWith('Outputs.')) {
        const name = String(getAtt[1]).slice('Outputs.'.length);
        const output = outputsOf(String(getAtt[0]))[name];
        if (output === undefined) throw new Error(`${current.node.path}: no output ${name} in ${String(getAtt[0])}`);
        return output;
      }
      return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, map(v)]));
    };
    for (const [id, resource] of Object.entries(template.Resources)) {
      const previous = owner.get(id);
      if (previous !== undefined) throw new Error(`Logical id ${id} is in both ${previous} and ${current.node.path}`);
      owner.set(id, current.node.path);
      merged.Resources[id] = map(resource) as CfnTemplate['Resources'][string];
    }
    for (const id of children.keys()) outputsOf(id);
    if (current !== stack) Object.assign(merged.Conditions ?? {}, map(template.Conditions ?? {}));
    if (current === stack && template.Outputs) merged.Outputs = map(template.Outputs) as CfnTemplate['Outputs'];
    return Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([name, output]) => [name, map(output.Value)]));
  };
  visit(stack, top, {});
  if (Object.keys(merged.Conditions ?? {}).length === 0) delete merged.Conditions;
  return merged;
}
