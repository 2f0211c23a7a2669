import { type CfnElement, Stack } from 'aws-cdk-lib';
import { buildApp } from '../../stack';
import { flattenedTemplate } from '../../cdk/templates';
import { queueList, streamForwarder } from '../../../shared/platform/queues';
import { LOCAL_APIPIX_SECRET_NAME, LOCAL_MAIL_CONFIGURATION_SET, LOCAL_MASTER_SECRET, LOCAL_PROVIDER_SECRET, LOCAL_TABLE } from '../constants';
import { API_PIX_CONTEXT } from '../../cdk/settings';
import { type LocalIamPolicies, type LocalNames, rolePolicies } from './policies';
import { LOCAL_ARNS } from './requests';

/** App context that skips bundling: the template is the same, only the code assets are missing. */
const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

/**
 * An API Pix PSP in the context: the local stack and its tests run the Pix functions on API Pix too
 * (test/support/apipix-env.ts), so their roles are the ones a deploy with a PSP synthesizes, its
 * secret granted under LOCAL_APIPIX_SECRET_NAME. Every other grant is the same with or without it.
 */
const WITH_API_PIX = {
  [API_PIX_CONTEXT.baseUrl]: 'https://psp.invalid/api/v2',
  [API_PIX_CONTEXT.clientId]: 'local',
  [API_PIX_CONTEXT.pixKey]: 'pix@local.invalid',
  [API_PIX_CONTEXT.secretName]: LOCAL_APIPIX_SECRET_NAME,
};

/**
 * Synthesizes the stack and its nested stacks (no bundling, no cdk-nag; read as one template whose
 * cross-stack parameters and outputs are put back as the references they stand for: a role in a
 * nested stack names the parent's table and queues) and keeps each function's role policies, their
 * resources named as the local stack names them (infra/local/stack.ts): the table, each queue and its
 * DLQ, the stream forwarder's failure queue, the master key and provider secrets, the mail's SES
 * configuration set.
 */
export function synthesizeLocalIamPolicies(mailFrom: string | undefined): LocalIamPolicies {
  const { stack } = buildApp({ context: { ...NO_BUNDLING, ...WITH_API_PIX, ...(mailFrom ? { mailFrom } : {}) }, nag: false });
  const template = flattenedTemplate(stack) as Parameters<typeof rolePolicies>[0];
  const id = (construct: { node: { defaultChild?: unknown } }) => {
    const element = construct.node.defaultChild as CfnElement;
    return Stack.of(element).getLogicalId(element);
  };
  const queues: Record<string, string> = {};
  for (const def of queueList) {
    const queue = stack.queues.get(def.id);
    if (!queue) continue;
    queues[id(queue.queue)] = def.id;
    queues[id(queue.dlq)] = `${def.id}-dlq`;
  }
  queues[id(stack.streamFailures.queue)] = `${streamForwarder.id}-failures`;
  const names: LocalNames = {
    table: LOCAL_TABLE,
    queues,
    secrets: { [id(stack.masterKey)]: LOCAL_MASTER_SECRET, [id(stack.providerCredentials)]: LOCAL_PROVIDER_SECRET },
    configurationSets: { [id(stack.mailFeedback.configurationSet)]: LOCAL_MAIL_CONFIGURATION_SET },
  };
  const byRole = rolePolicies(template, names, LOCAL_ARNS);
  const functions: LocalIamPolicies['functions'] = {};
  for (const [functionId, fn] of stack.functions) {
    const roleLogicalId = id(fn.role);
    functions[functionId] = { roleLogicalId, policies: byRole.get(roleLogicalId) ?? [] };
  }
  return { arns: LOCAL_ARNS, functions };
}
