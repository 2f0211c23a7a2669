import { Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/http/routes';
import { routeFunctions } from '../../shared/http/route';
import { SERVICE_STACKS, STACK_OF_ROUTE_TAG } from '../../infra/cdk/service-stacks';
import { EDGE_AUTHORIZER_ID, STACK_NAME } from '../../infra/stack';
import { ORIGIN_MTLS_CONTEXT, Synthesized } from './synthesized';

const PSP = {
  apiPixBaseUrl: 'https://psp.example/api/v2',
  apiPixClientId: 'client',
  apiPixPixKey: 'pix@example.com',
  apiPixSecretName: 'payment-gateway/apipix',
};
/** Every production setting that adds resources or outputs (test/infra/deploy-settings.test.ts): a PSP, mail, a custom domain, WAF and the origin domain with mTLS. */
const PRODUCTION = {
  ...PSP,
  ...ORIGIN_MTLS_CONTEXT,
  mailFrom: 'painel@pay.example.com',
  domainName: 'api.pay.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
  webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/payments/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
  throttleRate: '200',
  providerNotificationConcurrency: '25',
  logRetentionDays: '731',
};

/** The room each stack keeps: half of CloudFormation's 500 resources, and 700 KB of the template's 1 MB (as cdk.out writes it). */
const MAX_RESOURCES = 250;
const MAX_TEMPLATE_BYTES = 700 * 1024;

const defaults = new Synthesized();
const production = new Synthesized(PRODUCTION);

/** CloudFormation's limits (../shared/notes/aws-limits.md): 500 resources, 200 parameters and 200 outputs per stack; 1 MB per template. */
describe('every stack stays within CloudFormation’s limits, with room to grow (issue 44)', () => {
  it('holds fewer than 250 resources per stack and a template under 700 KB, with the defaults, a PSP and every production setting', () => {
    for (const s of [defaults, new Synthesized(PSP), production]) {
      expect(s.templates[0]?.path).toBe(STACK_NAME);
      expect(
        s.templates
          .slice(1)
          .map((t) => t.path)
          .sort(),
      ).toEqual(
        Object.keys(SERVICE_STACKS)
          .map((name) => `${STACK_NAME}/${name}`)
          .sort(),
      );
      for (const { path, template } of s.templates) {
        expect(Object.keys(template.Resources).length, path).toBeLessThan(MAX_RESOURCES);
        expect(Buffer.byteLength(JSON.stringify(template, undefined, 1)), path).toBeLessThan(MAX_TEMPLATE_BYTES);
        expect(Object.keys(template.Parameters ?? {}).length, path).toBeLessThan(200);
        expect(Object.keys(template.Outputs ?? {}).length, path).toBeLessThan(200);
      }
      // The split moves resources, it neither adds nor drops any: one nested stack resource per nested stack.
      const total = s.templates.reduce((sum, t) => sum + Object.keys(t.template.Resources).length, 0);
      expect(Object.keys(s.resources)).toHaveLength(total);
      expect(s.ofType('AWS::CloudFormation::Stack')).toHaveLength(s.templates.length - 1);
    }
  }, 300_000);

  it('puts every route function in the nested stack of its tag and every worker in Workers; the top-level stack keeps only the $default route and the edge authorizer', () => {
    for (const route of routeList) expect(STACK_OF_ROUTE_TAG[route.tag], `${route.id}: ${route.tag}`).toBeDefined();
    const routeIds = new Set(routeFunctions(routeList).keys());
    for (const [id, fn] of defaults.stack.functions) {
      const home = Stack.of(fn.fn).node.path;
      if (id === 'Fallback' || id === EDGE_AUTHORIZER_ID) expect(home, id).toBe(STACK_NAME);
      else if (routeIds.has(id)) {
        const tag = routeFunctions(routeList).get(id)?.[0]?.tag ?? '';
        expect(home, id).toBe(`${STACK_NAME}/${STACK_OF_ROUTE_TAG[tag]}`);
      } else expect(home, id).toBe(`${STACK_NAME}/Workers`);
      // Each function's role, policy and log group live with it.
      expect(Stack.of(fn.role).node.path, id).toBe(home);
      expect(Stack.of(fn.logGroup).node.path, id).toBe(home);
    }
  });
});

/**
 * The logical ids and retain policies of the data, captured before the split (issue 44): a changed
 * logical id would make CloudFormation create a new table (or queue, secret, key) and drop the old one
 * from the stack. They stay in the top-level stack, as they were.
 */
const DATA_BEFORE_THE_SPLIT: Record<string, [type: string, deletionPolicy: string | null, updateReplacePolicy: string | null]> = {
  TableCD117FA1: ['AWS::DynamoDB::Table', 'Retain', 'Retain'],
  MasterKey0175C9E2: ['AWS::SecretsManager::Secret', 'Retain', 'Retain'],
  ProviderCredentials9BA01DC4: ['AWS::SecretsManager::Secret', 'Retain', 'Retain'],
  payoutsQueueDlqF68700A3: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  payoutsQueue1AB4A403: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  webhooksQueueDlqE8C928AE: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  webhooksQueue54799EC2: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  reconcileQueueDlq8F560E8F: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  reconcileQueueB13B9628: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  mailQueueDlqE99D4EE8: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  mailQueue2B8CC55A: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  StreamForwarderFailuresQueue7BE92965: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  EdgeOriginSecretC4CB396E: ['AWS::SecretsManager::Secret', 'Delete', 'Delete'],
  AlarmsKey3C2381B3: ['AWS::KMS::Key', 'Retain', 'Retain'],
  AlarmsTopic3A2DFEBA: ['AWS::SNS::Topic', null, null],
  // The public address: a new API or distribution would change ApiUrl (and a custom domain cannot be on two distributions).
  HttpApiF5A9A8A7: ['AWS::ApiGatewayV2::Api', null, null],
  DefaultStageEE28A986: ['AWS::ApiGatewayV2::Stage', null, null],
  EdgeDistribution0060737B: ['AWS::CloudFront::Distribution', null, null],
  // Added with the mail feedback (issue 44), data too: SES's events queue and DLQ, its topic and the topic's key.
  mailFeedbackQueueDlqDD1743B4: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  mailFeedbackQueue79940712: ['AWS::SQS::Queue', 'Retain', 'Retain'],
  MailFeedbackKey39751EAB: ['AWS::KMS::Key', 'Retain', 'Retain'],
  MailFeedbackTopic7A5EA358: ['AWS::SNS::Topic', null, null],
};
const KEPT_TYPES = new Set(Object.values(DATA_BEFORE_THE_SPLIT).map(([type]) => type));

describe('the data keeps its logical ids and retain policies through the split (issue 44)', () => {
  it('has the same table, queues, DLQs, secrets, key, topic, API, stage and distribution in the top-level stack, each with its policies', () => {
    for (const s of [defaults, production]) {
      const [top] = s.templates;
      const kept = Object.entries(top?.template.Resources ?? {})
        .filter(([, r]) => KEPT_TYPES.has(r.Type))
        .map(([id, r]) => {
          const policies = r as { DeletionPolicy?: string; UpdateReplacePolicy?: string };
          return [id, [r.Type, policies.DeletionPolicy ?? null, policies.UpdateReplacePolicy ?? null]];
        });
      expect(Object.fromEntries(kept)).toEqual(DATA_BEFORE_THE_SPLIT);
      // None of these types anywhere else.
      for (const { path, template } of s.templates.slice(1)) {
        expect(
          Object.values(template.Resources).filter((r) => KEPT_TYPES.has(r.Type)),
          path,
        ).toEqual([]);
      }
    }
  });
});
