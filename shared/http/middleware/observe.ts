import { logger } from '../../logger';
import { type ErrorPage, errorApiResult, toApiResult } from '../answer';
import { toErrorAnswer } from '../errors';
import type { AnyRoute } from '../route';
import { isPending, type PipelineMiddleware, type PipelineRequest } from '../state';
import type { Runtime } from '../../runtime';
import { retryBudget } from '../../storage/contention';

function requestFields(request: PipelineRequest) {
  const { route, startedAt, caller } = request.context.state;
  return {
    route: route.id,
    requestId: request.event.requestContext?.requestId,
    accountId: caller?.accountId,
    ms: Date.now() - startedAt,
  };
}

/**
 * Outermost step: opens the request's state, turns the pending answer into the API Gateway response,
 * maps every error through the one error module (as JSON, or as the route's HTML error page), and logs one structured line per request
 * (route, status, timing, account id: never bodies or headers).
 */
export function observe(route: AnyRoute, runtime: () => Runtime, errorPage?: ErrorPage): PipelineMiddleware {
  return {
    before: (request) => {
      request.context.state = { route, startedAt: Date.now(), budget: retryBudget(), runtime: runtime() };
    },
    after: (request) => {
      const pending = request.response;
      if (!isPending(pending)) return;
      const headers = pending.replayed ? { ...pending.headers, 'Idempotent-Replayed': 'true' } : pending.headers;
      request.response = toApiResult({ ...pending, headers });
      logger.info('request', { ...requestFields(request), status: pending.status, replayed: pending.replayed || undefined });
    },
    onError: (request) => {
      const answer = toErrorAnswer(request.error);
      if (request.context.state) {
        if (answer.unexpected) logger.error('request failed', { ...requestFields(request), status: 500, error: request.error ?? undefined });
        else logger.info('request', { ...requestFields(request), status: answer.status });
      } else {
        logger.error('request failed before it started', { error: request.error ?? undefined });
      }
      return errorApiResult(answer, errorPage);
    },
  };
}
