import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LocalArns } from './requests';
import { LOCAL_ARNS, queueArn, secretArn, tableArn } from './requests';

/** A policy document as synthesized, its tokens resolved to the local ARNs. */
export type PolicyDocument = { Version?: string; Statement: Record<string, unknown>[] };

/** One function's role as synthesized: its name and every identity policy attached to it. */
export type FunctionRole = { roleLogicalId: string; policies: { name: string; policy: PolicyDocument }[] };

/** What the local stack evaluates calls against: each function's role, by the stack's function id. */
export type LocalIamPolicies = { arns: LocalArns; functions: Record<string, FunctionRole> };

/** The names the local stack gives the resources the synthesized template creates (infra/local/stack.ts). */
export type LocalNames = {
  table: string;
  /** Queue logical id → local queue name. */
  queues: Record<string, string>;
  /** Secret logical id → local secret name. */
  secrets: Record<string, string>;
  /** SES configuration set logical id → local configuration set name (issue 44). */
  configurationSets?: Record<string, string>;
};

type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };

/**
 * Resolves the CloudFormation tokens of a policy (Ref, Fn::GetAtt, Fn::Join, pseudo parameters) to the
 * ARNs the local stack builds for the same resources, so a statement's Resource and a call's resource
 * meet exactly as they would in AWS. A token naming something the local stack does not run resolves to
 * an ARN no call can have (`…:unresolved/<id>`): a statement about it can never allow a local call.
 */
export function resolveTokens(value: unknown, template: Template, names: LocalNames, arns: LocalArns): unknown {
  const resolve = (v: unknown): unknown => resolveTokens(v, template, names, arns);
  if (Array.isArray(value)) return value.map(resolve);
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const unresolved = (id: string) => `arn:${arns.partition}:unresolved:${arns.region}:${arns.account}:${id}`;
  if ('Ref' in object) {
    const id = String(object.Ref);
    const pseudo: Record<string, string> = {
      'AWS::Partition': arns.partition,
      'AWS::Region': arns.region,
      'AWS::AccountId': arns.account,
      'AWS::URLSuffix': 'amazonaws.com',
    };
    if (pseudo[id] !== undefined) return pseudo[id];
    const type = template.Resources[id]?.Type;
    if (type === 'AWS::SecretsManager::Secret' && names.secrets[id]) return secretArn(arns, names.secrets[id]);
    // A configuration set's Ref is its name.
    if (type === 'AWS::SES::ConfigurationSet' && names.configurationSets?.[id]) return names.configurationSets[id];
    return unresolved(id);
  }
  if ('Fn::GetAtt' in object) {
    const [id, attribute] = object['Fn::GetAtt'] as [string, string];
    const type = template.Resources[id]?.Type;
    if (type === 'AWS::DynamoDB::Table' && attribute === 'Arn') return tableArn(arns, names.table);
    if (type === 'AWS::DynamoDB::Table' && attribute === 'StreamArn') return `${tableArn(arns, names.table)}/stream/local`;
    if (type === 'AWS::SQS::Queue' && attribute === 'Arn' && names.queues[id]) return queueArn(arns, names.queues[id]);
    return unresolved(`${id}.${attribute}`);
  }
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return (resolve(parts) as unknown[]).map(String).join(separator);
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, resolve(v)]));
}

/** Every identity policy of every role, by the role's logical id, resolved. */
export function rolePolicies(template: Template, names: LocalNames, arns: LocalArns): Map<string, { name: string; policy: PolicyDocument }[]> {
  const byRole = new Map<string, { name: string; policy: PolicyDocument }[]>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const document = resolveTokens(resource.Properties?.PolicyDocument, template, names, arns) as PolicyDocument;
    for (const role of (resource.Properties?.Roles ?? []) as { Ref?: string }[]) {
      if (!role.Ref) continue;
      const list = byRole.get(role.Ref) ?? [];
      list.push({ name: id, policy: document });
      byRole.set(role.Ref, list);
    }
  }
  return byRole;
}

/** The sources the synthesized policies derive from: a change to any of them synthesizes again. */
export function sourceDigest(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const dir of ['infra', 'shared']) walk(join(root, dir));
  for (const file of ['cdk.json', 'package-lock.json']) if (existsSync(join(root, file))) hash.update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/** The local stack's mail sender as an address (the stack's `mailFrom` context takes no display name). */
export function mailFromAddress(mailFrom: string | undefined): string | undefined {
  if (!mailFrom) return undefined;
  const match = /<([^>]+)>/.exec(mailFrom);
  return (match?.[1] ?? mailFrom).trim();
}

export { LOCAL_ARNS };
