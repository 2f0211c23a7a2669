import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Admission } from '../app/auth/admit';
import type { Caller } from '../domain/account';
import type { HeldKey, RetryBudget, StoredAnswer } from '../ports/commit';
import type { QuotaState } from '../domain/sliding-log';
import type { Runtime } from '../wiring/runtime';
import type { HttpPorts } from '../wiring/http';
import type { Answer } from './answer';
import type { AnyRoute } from './route';

/** What the handler step hands to the after-steps: the serialized, committed (or replayed) answer. */
export type PendingAnswer = Answer & { replayed: boolean };

/** One request's state, carried on the invocation's context from step to step. */
export type RouteState = {
  route: AnyRoute;
  startedAt: number;
  /** How long this request may keep retrying writes that lose to concurrent ones (one budget for all its steps). */
  budget: RetryBudget;
  runtime: Runtime;
  /** Idempotency and the commit, as ports over the runtime's storage (shared/wiring/http.ts). */
  ports: HttpPorts;
  caller?: Caller;
  /** The client address the per-IP counters count (behind the edge: the viewer's). */
  clientIp?: string;
  /**
   * A read beside the gate (issue 26): the account's count still running while the read goes out. The
   * answer waits for it (settleGate); its refusal is the answer, whatever the read found.
   */
  gate?: Promise<Admission>;
  /** The quota left of the rate limit this call was counted against (the RateLimit-* headers). */
  quota?: QuotaState;
  input?: { body: unknown; query: unknown; params: unknown };
  /** The request's Idempotency-Key, checked (idempotency-key.ts) before the body. */
  idempotencyKey?: string;
  /** The key's record was consulted by taking its lock (persist): nothing more to check on error. */
  keyChecked?: boolean;
  lock?: HeldKey;
  replay?: StoredAnswer;
  /**
   * The reads the implementation asked for beside the gate and the lock (the handler's `prepare`), and
   * the instant they were asked at (the implementation's first run keeps it): issue 26.
   */
  prepared?: { value: Promise<unknown>; now: Date };
};

/** What a route's `prepare` knows: the validated input and the caller its token names (the gate has not answered yet). */
export type PrepareRequest = {
  body: unknown;
  query: unknown;
  params: unknown;
  caller: Caller | undefined;
  idempotencyKey: string | undefined;
  runtime: Runtime;
  now: Date;
};

export type PipelineContext = Context & { state: RouteState };
export type HttpResult = APIGatewayProxyStructuredResultV2 | PendingAnswer;
export type PipelineRequest = Request<APIGatewayProxyEventV2, HttpResult, Error, PipelineContext>;
export type PipelineMiddleware = MiddlewareObj<APIGatewayProxyEventV2, HttpResult, Error, PipelineContext>;

export function isPending(result: HttpResult | null | undefined): result is PendingAnswer {
  return typeof result === 'object' && result !== null && 'replayed' in result && !('statusCode' in result);
}

/** Headers of an API Gateway v2 event are lower-case; this reads one whatever the case given. */
export function header(request: PipelineRequest, name: string): string | undefined {
  return request.event.headers?.[name.toLowerCase()];
}
