import { NestedStack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { AnyRoute } from '../../shared/http/route';

/**
 * The nested stacks of the deployment (issue 44, "Room to grow"): CloudFormation holds at most 500
 * resources per stack, and one function per route filled the one stack. The top-level stack keeps the
 * data (table, queues and DLQs, secrets, the alarm topic and its key), the edge (CloudFront, the HTTP
 * API, its stage and authorizer, the $default route), the alarms, the dashboard and every output; each
 * nested stack below holds its functions with what belongs to each function alone (log group, role and
 * policy, API Gateway routes, integrations and invoke permissions, event source mappings, schedules).
 * `cdk deploy` of the top-level stack deploys them all, in order.
 */
export const SERVICE_STACKS = {
  ApiCharges: 'API functions: charges, boletos, invoices and Pix withdrawals',
  ApiAccount: 'API functions: authentication, account, customers, reference data and the API document',
  Integrations: "API functions called by payment providers, and the merchants' webhooks and events",
  Checkout: 'Hosted checkout functions (the pages and forms payers use)',
  Panel: 'Merchant panel functions (one per panel area)',
  Workers: 'Queue consumers, table stream consumers and scheduled workers',
} as const;

export type ServiceStackName = keyof typeof SERVICE_STACKS;

/** Which nested stack holds the functions of the routes of each OpenAPI tag (every tag must have one). */
export const STACK_OF_ROUTE_TAG: Readonly<Record<string, ServiceStackName>> = {
  Charges: 'ApiCharges',
  Invoices: 'ApiCharges',
  Withdrawals: 'ApiCharges',
  Authentication: 'ApiAccount',
  Account: 'ApiAccount',
  Customers: 'ApiAccount',
  'Reference data': 'ApiAccount',
  Meta: 'ApiAccount',
  Provider: 'Integrations',
  Webhooks: 'Integrations',
  Events: 'Integrations',
  'Hosted checkout': 'Checkout',
  'Merchant panel': 'Panel',
};

/** The nested stack of a route function (the routes sharing one function share its tag). */
export function routeStackOf(group: readonly AnyRoute[]): ServiceStackName {
  const tags = new Set(group.map((route) => route.tag));
  const [tag] = tags;
  if (tags.size !== 1 || tag === undefined) throw new Error(`Routes ${group.map((r) => r.id).join(', ')} share a function but not a tag`);
  const name = STACK_OF_ROUTE_TAG[tag];
  if (!name) throw new Error(`No nested stack holds the routes tagged "${tag}": add the tag to STACK_OF_ROUTE_TAG (infra/cdk/service-stacks.ts)`);
  return name;
}

/** The nested stacks of one top-level stack, each created when its first function is added. */
export class ServiceStacks {
  private readonly stacks = new Map<ServiceStackName, NestedStack>();

  constructor(private readonly parent: Construct) {}

  get(name: ServiceStackName): NestedStack {
    const existing = this.stacks.get(name);
    if (existing) return existing;
    const stack = new NestedStack(this.parent, name, { description: `Payment gateway: ${SERVICE_STACKS[name]}` });
    this.stacks.set(name, stack);
    return stack;
  }

  /** The nested stacks created so far, by name. */
  all(): ReadonlyMap<ServiceStackName, NestedStack> {
    return this.stacks;
  }
}
