import middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { output, ZodType } from 'zod';
import type { Caller } from '../auth/gate';
import { logger } from '../logger';
import { getRuntime, type Runtime } from '../runtime';
import { type RouteResult, serializeResult } from './answer';
import { admitCaller } from './middleware/admit';
import { jsonBody } from './middleware/json-body';
import { observe } from './middleware/observe';
import { commitAnswer, persist } from './middleware/persist';
import { TemporaryConflictError } from './errors';
import { validateInput } from './middleware/validate';
import type { RouteDef } from './route';
import type { HttpResult, PendingAnswer, PipelineContext } from './state';

const MAX_ID_CLASH_ATTEMPTS = 3;

type Parsed<T> = T extends ZodType ? output<T> : undefined;

/** What a route implementation receives: validated input, the caller, and the runtime's ports. */
export type RouteRequest<Body, Query, Params> = {
  body: Parsed<Body>;
  query: Parsed<Query>;
  params: Parsed<Params>;
  caller: Caller | undefined;
  event: APIGatewayProxyEventV2;
  runtime: Runtime;
  now: Date;
};

/**
 * Builds a route's Lambda handler: observe → admit (auth + rate limit) → JSON body → validate →
 * idempotency → the implementation, whose writes are committed with the completed idempotency
 * record in one transaction. Implementations decide and return their answer with the writes to
 * commit; responses and errors are built in one place. Routes marked `retryOnIdClash` run again
 * (up to 3 times) when a randomly drawn id or reference turns out to be taken.
 */
export function httpHandler<Body extends ZodType | undefined, Query extends ZodType | undefined, Params extends ZodType | undefined>(
  route: RouteDef<Body, Query, Params>,
  implementation: (request: RouteRequest<Body, Query, Params>) => Promise<RouteResult>,
  runtime: () => Runtime = getRuntime,
) {
  return middy<APIGatewayProxyEventV2, HttpResult, Error, PipelineContext>()
    .use(observe(route, runtime))
    .use(admitCaller())
    .use(jsonBody())
    .use(validateInput())
    .use(persist())
    .handler(async (event, context): Promise<PendingAnswer> => {
      const { state } = context;
      if (state.replay) return { ...state.replay, headers: {}, replayed: true };
      const input = state.input ?? { body: undefined, query: undefined, params: undefined };
      const attempts = route.retryOnIdClash ? MAX_ID_CLASH_ATTEMPTS : 1;
      for (let attempt = 1; ; attempt += 1) {
        const result = await implementation({
          body: input.body as Parsed<Body>,
          query: input.query as Parsed<Query>,
          params: input.params as Parsed<Params>,
          caller: state.caller,
          event,
          runtime: state.runtime,
          now: state.runtime.clock.now(),
        });
        const answer = serializeResult(result);
        try {
          state.runtime.faults?.beforeCommit?.(route.id);
          await commitAnswer(state, answer, result.writes ?? []);
        } catch (err) {
          // Nothing was written: undo what the implementation did elsewhere, then draw again on an id clash.
          await result
            .compensate?.()
            .catch((undo: unknown) => logger.error('compensation failed', { route: route.id, error: undo instanceof Error ? undo.message : 'unknown' }));
          if (!(err instanceof TemporaryConflictError) || attempt >= attempts) throw err;
          continue;
        }
        state.runtime.faults?.afterCommit?.(route.id);
        return { ...answer, replayed: false };
      }
    });
}
