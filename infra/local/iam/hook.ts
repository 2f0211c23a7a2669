import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@smithy/core/client';
import type { LoadedHandler } from '../handlers';
import { AccessDeniedError, IamEvaluator } from './evaluator';
import type { FunctionRole, LocalIamPolicies } from './policies';
import { authorizationRequests, type AuthorizationRequest } from './requests';

/** The function an SDK call is made by: set around each handler invocation (the local gateway, the pollers, the tests' invoke). */
export type Invocation = {
  functionId: string;
  /** A role to evaluate against instead of the synthesized one (a test's deliberately narrowed policy). */
  role?: FunctionRole;
  /** Denials in this invocation are expected (a test that narrows a policy): recorded, not counted against the run. */
  expectDenials?: boolean;
};

/** One refused call, as recorded in the run's denial log (one JSON line each). */
export type DenialRecord = AuthorizationRequest & { functionId: string; principal: string; expected: boolean; at: string; pid: number };

const invocations = new AsyncLocalStorage<Invocation>();

/**
 * Runs `work` as the stack's function `functionId`: the SDK calls it makes are evaluated against that
 * function's role. Within an invocation of the same function (a test that narrowed its role, then
 * calls invoke), the outer role and expectation hold unless `options` names others.
 */
export function runAsFunction<T>(functionId: string, work: () => T, options: Omit<Invocation, 'functionId'> = {}): T {
  const outer = invocations.getStore();
  const inherited = outer?.functionId === functionId ? { role: outer.role, expectDenials: outer.expectDenials } : {};
  return invocations.run({ functionId, ...inherited, ...options }, work);
}

/** A handler that runs as the stack's function `functionId`. */
export function asFunction(functionId: string, handler: LoadedHandler): LoadedHandler {
  return (event, context) => runAsFunction(functionId, () => handler(event, context));
}

/** The function the current call is made by, if any. */
export function currentInvocation(): Invocation | undefined {
  return invocations.getStore();
}

/** The environment variable naming the directory each process appends its denials to (`iam-denials-<pid>.jsonl`). */
export const DENIALS_DIR_ENV = 'LOCAL_IAM_DENIALS_DIR';

type State = { evaluator: IamEvaluator; denialsDir: string | undefined };
const GLOBAL = Symbol.for('payment-gateway.local.iam-evaluation');
type Holder = typeof globalThis & { [GLOBAL]?: State };

function record(state: State, invocation: Invocation, request: AuthorizationRequest, principal: string): void {
  const denial: DenialRecord = {
    ...request,
    functionId: invocation.functionId,
    principal,
    expected: invocation.expectDenials === true,
    at: new Date().toISOString(),
    pid: process.pid,
  };
  if (!denial.expected) {
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'local IAM evaluation: call denied',
        functionId: denial.functionId,
        action: denial.action,
        resource: denial.resource,
      }),
    );
  }
  if (!state.denialsDir) return;
  mkdirSync(state.denialsDir, { recursive: true });
  appendFileSync(join(state.denialsDir, `iam-denials-${process.pid}.jsonl`), `${JSON.stringify(denial)}\n`);
}

/** Evaluates one SDK call made in an invocation; a denied one throws what the SDK would (before anything is sent). */
export async function evaluateCall(clientName: string, commandName: string, input: Record<string, unknown>): Promise<void> {
  const state = (globalThis as Holder)[GLOBAL];
  const invocation = invocations.getStore();
  if (!state || !invocation || !state.evaluator.knows(invocation.functionId)) return;
  const requests = authorizationRequests(state.evaluator.policies.arns, clientName, commandName, input);
  for (const request of requests ?? []) {
    const decision = await state.evaluator.decide(invocation.functionId, request, invocation.role);
    if (decision.allowed) continue;
    record(state, invocation, request, decision.principal);
    throw new AccessDeniedError(decision.principal, request);
  }
}

type Stack = { add: (middleware: unknown, options: Record<string, unknown>) => void };
const hooked = new WeakSet<object>();

/**
 * Installs the evaluation on every AWS SDK v3 client of this process (idempotent; the policies of the
 * last call win): each client gets, at its first send, a build-step middleware that evaluates the
 * call's low-level input (a document client's commands are marshalled by then) when it is made within
 * an invocation (runAsFunction), and throws AccessDeniedError for a denied one. Calls made outside any
 * invocation (the local stack's own pollers, the tests' setup code) are not evaluated.
 */
export function installIamEvaluation(policies: LocalIamPolicies, denialsDir: string | undefined = process.env[DENIALS_DIR_ENV]): void {
  const holder = globalThis as Holder;
  const installed = holder[GLOBAL] !== undefined;
  holder[GLOBAL] = { evaluator: new IamEvaluator(policies), denialsDir };
  if (installed) return;
  const prototype = Client.prototype as unknown as { send: (...args: unknown[]) => unknown };
  const send = prototype.send;
  prototype.send = function (this: { middlewareStack: Stack }, ...args: unknown[]) {
    const stack = this.middlewareStack;
    if (!hooked.has(stack)) {
      hooked.add(stack);
      stack.add(
        (next: (args: { input: Record<string, unknown> }) => Promise<unknown>, context: { clientName?: string; commandName?: string }) =>
          async (callArgs: { input: Record<string, unknown> }) => {
            await evaluateCall(context.clientName ?? '', context.commandName ?? '', callArgs.input);
            return next(callArgs);
          },
        { step: 'build', priority: 'high', name: 'localIamEvaluation', override: true },
      );
    }
    return send.apply(this, args);
  };
}
