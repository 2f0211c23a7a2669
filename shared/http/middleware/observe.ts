import { DomainError } from '../../domain/errors';
import { endInvocation, logger, startInvocation } from '../../platform/logger';
import { countMetric, flushMetrics, holdMetrics, type MetricCount, releaseHeldMetrics, requestMetrics } from '../../platform/metrics';
import { type ErrorPage, errorApiResult, toApiResult } from '../answer';
import { toErrorAnswer } from '../errors';
import { quotaHeaders } from '../rate-limit-headers';
import type { AnyRoute } from '../route';
import { isPending, type PipelineMiddleware, type PipelineRequest } from '../state';
import type { Runtime } from '../../wiring/runtime';
import { httpPorts } from '../../wiring/http';

/** A path parameter that names an invoice, withdraw or checkout, when it has an identifier's shape (anything else is not logged). */
function referenceOf(request: PipelineRequest): string | undefined {
  const params = request.event.pathParameters ?? {};
  const value = params.reference ?? params.tx_ref ?? params.txid ?? params.id;
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined;
}

/** The request line's own fields (exact even where invocations overlap, as in the local server). */
function requestFields(request: PipelineRequest) {
  const { route, startedAt, caller } = request.context.state;
  return { route: route.id, requestId: request.event.requestContext?.requestId, accountId: caller?.accountId, ms: Date.now() - startedAt };
}

function publish(counts: MetricCount[]): void {
  for (const count of counts) countMetric(count.name, count);
}

/**
 * Outermost step: opens the request's state and its logging (the Lambda context, route, API request id,
 * the path's reference, and the account once authenticated, on every line the request writes), turns the
 * pending answer into the API Gateway response, maps every error through the one error module (as JSON,
 * or as the route's HTML error page), logs one structured line per request (route, status, timing,
 * account id: never bodies or headers) and publishes the request's business metrics: those the
 * implementation counted (held until the answer is committed) and those its answer stands for
 * (creations, replays, 409, 429, 503, declined cards). Keys and held counts never outlive the request.
 * Answers of a call counted against a rate limit carry the RateLimit-* headers of what is left.
 */
export function observe(route: AnyRoute, runtime: () => Runtime, errorPage?: ErrorPage): PipelineMiddleware {
  return {
    before: (request) => {
      const current = runtime();
      const ports = httpPorts(current);
      request.context.state = { route, startedAt: Date.now(), budget: ports.committer.budget(), runtime: current, ports };
      startInvocation(request.context, { route: route.id, requestId: request.event.requestContext?.requestId, reference: referenceOf(request) }, () => ({
        accountId: request.context.state?.caller?.accountId,
      }));
      holdMetrics();
    },
    after: (request) => {
      const pending = request.response;
      if (!isPending(pending)) return;
      const { quota } = request.context.state;
      const headers = {
        ...pending.headers,
        ...(pending.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
        ...(quota ? quotaHeaders(quota) : {}),
      };
      request.response = toApiResult({ ...pending, headers });
      try {
        logger.info('request', { ...requestFields(request), status: pending.status, replayed: pending.replayed || undefined });
        releaseHeldMetrics(true);
        publish(requestMetrics({ routeId: route.id, status: pending.status, replayed: pending.replayed }));
      } finally {
        flushMetrics();
        endInvocation();
      }
    },
    onError: (request) => {
      const error = toErrorAnswer(request.error);
      // A call counted and then refused (422, 409…) still tells the caller its quota.
      const quota = request.context.state?.quota;
      const answer = quota ? { ...error, headers: { ...quotaHeaders(quota), ...error.headers } } : error;
      try {
        if (request.context.state) {
          if (answer.unexpected) logger.error('request failed', { ...requestFields(request), status: 500, error: request.error ?? undefined });
          else logger.info('request', { ...requestFields(request), status: answer.status });
        } else {
          logger.error('request failed before it started', { error: request.error ?? undefined });
        }
        // Whatever the implementation counted was not committed.
        releaseHeldMetrics(false);
        const errorCode = request.error instanceof DomainError ? request.error.code : undefined;
        publish(requestMetrics({ routeId: route.id, status: answer.status, replayed: false, errorCode }));
      } finally {
        flushMetrics();
        endInvocation();
      }
      return errorApiResult(answer, errorPage);
    },
  };
}
