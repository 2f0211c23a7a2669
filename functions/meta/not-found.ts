import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import middy from '@middy/core';
import { errorApiResult } from '../../shared/http/answer';
import { MethodNotAllowedError, NotFoundError } from '../../shared/domain/errors';
import { toErrorAnswer } from '../../shared/http/errors';
import { createRouter } from '../../shared/http/route';
import { routeList } from '../../shared/http/routes';

const route = createRouter(routeList);

/** The API's $default route: JSON 404 for unknown paths, 405 (with Allow) for a known path and another method. */
export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(async (event) => {
  const match = route(event.requestContext.http.method, event.requestContext.http.path ?? event.rawPath);
  const error =
    match.kind === 'method' ? new MethodNotAllowedError(match.allowed) : new NotFoundError(`No route for ${event.requestContext.http.method} ${event.rawPath}`);
  const answer = toErrorAnswer(error);
  return errorApiResult(answer);
});
