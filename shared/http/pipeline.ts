import middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { output, ZodType } from 'zod';
import type { Caller } from '../domain/account';
import { logger } from '../platform/logger';
import { getRuntime, type Runtime } from '../wiring/runtime';
import { type ErrorPage, type RouteResult, serializeResult } from './answer';
import { admitCaller, settleGate } from './middleware/admit';
import { idempotencyKeyFirst } from './middleware/idempotency-key';
import { jsonBody } from './middleware/json-body';
import { observe } from './middleware/observe';
import { commitAnswer, persist, settleFailedCommit } from './middleware/persist';
import { type ChangeCompilers, compileChanges } from '../wiring/compile';
import { BalanceMovedError, DomainError, IdClashError, RequestDeadlineError } from '../domain/errors';
import { countRefusedCredentials } from '../app/auth/admit';
import { gatePorts } from '../wiring/gate';
import { validateInput } from './middleware/validate';
import { requestDeadlines } from '../wiring/http';
import { storageErrors } from './middleware/storage-errors';
import type { RouteDef } from './route';
import { API_FUNCTION_TIMEOUT_MS } from '../domain/time-budgets';
import type { HttpResult, PendingAnswer, PipelineContext, PrepareRequest, RouteState } from './state';

const MAX_ID_CLASH_ATTEMPTS = 3;
/** How often a withdrawal plans again when a balance shard it took from moved before the commit. */
const MAX_BALANCE_MOVED_ATTEMPTS = 5;
/** The API functions' timeout, for a context that does not tell its remaining time. */
const DEFAULT_REMAINING_MS = API_FUNCTION_TIMEOUT_MS;
/** How long before the function's timeout middy stops waiting for the request (time to answer and free the key). */
const TIMEOUT_EARLY_MS = 500;

type Parsed<T> = T extends ZodType ? output<T> : undefined;

/** What a route implementation receives: validated input, the caller, and the runtime's ports. */
export type RouteRequest<Body, Query, Params, Prepared = undefined> = {
  body: Parsed<Body>;
  query: Parsed<Query>;
  params: Parsed<Params>;
  /** What the route's `prepare` read beside the gate and the lock (its first run only; a run again reads anew). */
  prepared: Prepared | undefined;
  caller: Caller | undefined;
  /** The request's Idempotency-Key, when it holds one (e.g. to derive a provider's idempotency key). */
  idempotencyKey: string | undefined;
  event: APIGatewayProxyEventV2;
  /**
   * The client's address as the per-IP counters count it: behind the edge, the viewer's address the
   * edge function named (CloudFront's own address otherwise); locally, API Gateway's source address.
   */
  clientIp: string;
  runtime: Runtime;
  now: Date;
};

/**
 * Builds a route's Lambda handler: observe → admit (auth + rate limit) → Idempotency-Key → JSON body → validate →
 * idempotency → the implementation, whose writes are committed with the completed idempotency
 * record in one transaction. Implementations decide and return their answer with the writes to
 * commit; responses and errors are built in one place. Routes marked `retryOnIdClash` run again
 * (up to 3 times) when a randomly drawn id or reference turns out to be taken, and (up to 5 times)
 * when a balance shard a withdrawal planned to take from moved before the commit (BalanceMovedError).
 */
/**
 * Runs the implementation; a call it refuses for its credentials (kind 'unauthorized') on a route that
 * counts refusals per IP is counted first (past the limit: 429 instead of 401).
 */
async function refusalsCounted<T>(state: RouteState, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'unauthorized') {
      // Counted: the refusal answers with the quota left (RateLimit-* headers).
      state.quota = (await countRefusedCredentials(state.route, state.clientIp ?? 'unknown', gatePorts(state.runtime, state.budget))) ?? state.quota;
    }
    throw err;
  }
}

/** What a route's `prepare` is given: the validated input, the caller its token names (no account yet: the gate has not answered), the runtime. */
export type PrepareInput<Body = unknown, Query = unknown, Params = unknown> = Omit<RouteRequest<Body, Query, Params>, 'prepared' | 'event'>;

export type HandlerOptions<Body = unknown, Query = unknown, Params = unknown, Prepared = undefined> = {
  runtime?: () => Runtime;
  /** Browser-facing routes: every error answer becomes this HTML page (same status and headers). */
  errorPage?: ErrorPage;
  /** How the changes the route's use case may say become writes (its rooms' compilers, shared/wiring/). */
  changes?: ChangeCompilers;
  /**
   * The reads its use case needs that depend only on the validated input and the token's caller (ids
   * checked unused, the payer): sent beside the gate and the idempotency lock (issue 26: creations in
   * two waits), handed to the implementation's first run; thrown away when the gate refuses or the key
   * replays. Reads only: nothing here may change anything or call a provider.
   */
  prepare?: (request: PrepareInput<Body, Query, Params>) => Promise<Prepared>;
};

export function httpHandler<Body extends ZodType | undefined, Query extends ZodType | undefined, Params extends ZodType | undefined, Prepared = undefined>(
  route: RouteDef<Body, Query, Params>,
  implementation: (request: RouteRequest<Body, Query, Params, NoInfer<Prepared>>) => Promise<RouteResult>,
  options: HandlerOptions<Body, Query, Params, Prepared> = {},
) {
  const runtime = options.runtime ?? getRuntime;
  // Should a request still run when the function is about to time out, it answers 503 (retry with the same key), not a bare 500.
  const chain = middy<APIGatewayProxyEventV2, HttpResult, Error, PipelineContext>({
    timeoutEarlyInMillis: TIMEOUT_EARLY_MS,
    timeoutEarlyResponse: () => {
      throw new RequestDeadlineError();
    },
  })
    .use(observe(route, runtime, options.errorPage))
    .use(admitCaller())
    .use(idempotencyKeyFirst())
    .use(jsonBody())
    .use(validateInput())
    .use(persist(options.prepare as ((request: PrepareRequest) => Promise<unknown>) | undefined))
    .use(storageErrors())
    .handler(async (event, context): Promise<PendingAnswer> => {
      const { state } = context;
      if (state.replay) return { ...state.replay, headers: {}, replayed: true };
      const input = state.input ?? { body: undefined, query: undefined, params: undefined };
      const runs = { clash: 0, moved: 0 };
      for (;;) {
        // The first run takes what `prepare` read beside the gate, at the instant it was read for.
        const first = runs.clash === 0 && runs.moved === 0 ? state.prepared : undefined;
        const result = await refusalsCounted(state, async () =>
          implementation({
            body: input.body as Parsed<Body>,
            query: input.query as Parsed<Query>,
            params: input.params as Parsed<Params>,
            // A prepare that failed leaves the implementation to read for itself (its own errors, in its order).
            prepared: first ? ((await first.value.catch(() => undefined)) as Prepared | undefined) : undefined,
            caller: state.caller,
            idempotencyKey: state.lock?.key,
            event,
            clientIp: state.clientIp ?? 'unknown',
            runtime: state.runtime,
            now: first?.now ?? state.runtime.clock.now(),
          }),
        );
        // A read beside the gate answers only once the gate let the call through (else its refusal, the read thrown away).
        await settleGate(state);
        const answer = serializeResult(result);
        try {
          state.runtime.faults?.beforeCommit?.(route.id);
          if (result.writes && route.handler.startsWith('functions/'))
            throw new Error(`${route.id} returned raw writes: a route says changes (its grants derive from them)`);
          const compiled = result.changes ? await compileChanges(state.runtime, route, result.changes, options.changes ?? {}) : [];
          await commitAnswer(state, answer, [...(result.writes ?? []), ...compiled]);
        } catch (err) {
          const outcome = await settleFailedCommit(state, err);
          if (outcome === 'committed') {
            // The commit did happen (its answer is stored for the key): answer it.
            logger.warn('commit confirmed after an ambiguous failure', { route: route.id });
            return { ...answer, replayed: false };
          }
          // Undo what the implementation did elsewhere (e.g. void a card authorization); when the outcome is
          // unknown, the compensation itself re-reads what was recorded before undoing anything.
          if (outcome === 'unknown' && result.compensate) logger.warn('commit outcome unknown: compensation re-checks the record', { route: route.id });
          await requestDeadlines
            .cleanup(async () => result.compensate?.())
            .catch((undo: unknown) => logger.error('compensation failed', { route: route.id, error: undo instanceof Error ? undo.message : 'unknown' }));
          if (!route.retryOnIdClash) throw err;
          if (err instanceof IdClashError && (runs.clash += 1) < MAX_ID_CLASH_ATTEMPTS) continue;
          if (err instanceof BalanceMovedError && (runs.moved += 1) < MAX_BALANCE_MOVED_ATTEMPTS) continue;
          throw err;
        }
        state.runtime.faults?.afterCommit?.(route.id);
        return { ...answer, replayed: false };
      }
    });
  // Every DynamoDB call of the request gives up at its deadline, inside the function's timeout.
  return (event: APIGatewayProxyEventV2, context: PipelineContext) =>
    requestDeadlines.within(requestDeadlines.stopAtFor(context.getRemainingTimeInMillis?.() ?? DEFAULT_REMAINING_MS), () => chain(event, context));
}
