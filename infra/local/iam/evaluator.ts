import { runSimulation, runUnsafeSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import type { FunctionRole, LocalIamPolicies } from './policies';
import type { AuthorizationRequest } from './requests';

/** The principal a function's calls are made as: its role's session, named after the function as Lambda names it. */
export function principalOf(policies: LocalIamPolicies, role: string, functionId: string): string {
  return `arn:${policies.arns.partition}:sts::${policies.arns.account}:assumed-role/${role}/${functionId}`;
}

/** What a refused call answers, as AWS's SDK surfaces it per service (the error's name and HTTP status). */
const DENIAL_SHAPE: Record<string, { name: string; status: number }> = {
  dynamodb: { name: 'AccessDeniedException', status: 400 },
  sqs: { name: 'AccessDenied', status: 403 },
  ses: { name: 'AccessDeniedException', status: 403 },
  secretsmanager: { name: 'AccessDeniedException', status: 400 },
};

/** The SDK's error for a call IAM refused: what the handler would catch in AWS (name, $fault, $metadata.httpStatusCode). */
export class AccessDeniedError extends Error {
  readonly $fault = 'client' as const;
  readonly $metadata: { httpStatusCode: number; requestId: string; attempts: number; totalRetryDelay: number };
  readonly Code: string;

  constructor(principal: string, request: AuthorizationRequest) {
    const service = request.action.split(':')[0] ?? '';
    const shape = DENIAL_SHAPE[service] ?? { name: 'AccessDeniedException', status: 400 };
    super(
      `User: ${principal} is not authorized to perform: ${request.action} on resource: ${request.resource} because no identity-based policy allows the ${request.action} action (local IAM evaluation)`,
    );
    this.name = shape.name;
    this.Code = shape.name;
    this.$metadata = { httpStatusCode: shape.status, requestId: 'local-iam', attempts: 1, totalRetryDelay: 0 };
  }
}

export type Decision = { allowed: true } | { allowed: false; principal: string };

const MAX_REMEMBERED = 50_000;

/**
 * Evaluates authorization requests against a function's role policies with @cloud-copilot/iam-simulate.
 * The first request of each shape (function, action, resource, condition keys) runs the validating
 * simulation (policies, action, resource type and condition keys checked; keys the action does not
 * define are dropped, as AWS drops them); later ones of that shape run the unvalidated one, about three
 * times cheaper, with the same keys dropped. Decisions are remembered per exact request.
 */
export class IamEvaluator {
  private readonly shapes = new Map<string, string[]>();
  private readonly decisions = new Map<string, boolean>();

  constructor(readonly policies: LocalIamPolicies) {}

  /** Whether the stack has a function by this id (calls of one it lacks, test-only routes, are not evaluated). */
  knows(functionId: string): boolean {
    return functionId in this.policies.functions;
  }

  /** The decision on one request; `role` replaces the function's synthesized role (a test's narrowed policy). */
  async decide(functionId: string, request: AuthorizationRequest, role?: FunctionRole): Promise<Decision> {
    const synthesized = this.policies.functions[functionId];
    const used = role ?? synthesized;
    if (!used) throw new Error(`local IAM evaluation: no role for function ${functionId}`);
    const principal = principalOf(this.policies, used.roleLogicalId, functionId);
    const exact = role ? undefined : `${functionId}\u0000${request.action}\u0000${request.resource}\u0000${JSON.stringify(request.context)}`;
    const known = exact === undefined ? undefined : this.decisions.get(exact);
    if (known !== undefined) return known ? { allowed: true } : { allowed: false, principal };
    const allowed = await this.simulate(functionId, used, principal, request, role !== undefined);
    if (exact !== undefined) {
      if (this.decisions.size >= MAX_REMEMBERED) this.decisions.clear();
      this.decisions.set(exact, allowed);
    }
    return allowed ? { allowed: true } : { allowed: false, principal };
  }

  private async simulate(functionId: string, role: FunctionRole, principal: string, request: AuthorizationRequest, narrowed: boolean): Promise<boolean> {
    const simulation = (context: Record<string, string | string[]>): Simulation => ({
      request: {
        principal,
        action: request.action,
        resource: { resource: request.resource, accountId: this.policies.arns.account },
        contextVariables: context,
      },
      identityPolicies: role.policies,
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    });
    const shape = `${narrowed ? '~' : ''}${functionId}\u0000${request.action}\u0000${request.resource}\u0000${Object.keys(request.context).sort().join(',')}`;
    const ignored = this.shapes.get(shape);
    if (ignored) {
      const context = Object.fromEntries(Object.entries(request.context).filter(([key]) => !ignored.includes(key)));
      return runUnsafeSimulation(simulation(context), {}) === 'Allowed';
    }
    const result = await runSimulation(simulation(request.context), {});
    if (result.resultType === 'error')
      throw new Error(`local IAM evaluation of ${request.action} for ${functionId} could not run: ${JSON.stringify(result.errors)}`);
    if (result.resultType === 'single') this.shapes.set(shape, result.result.ignoredContextKeys ?? []);
    return result.overallResult === 'Allowed';
  }
}
