import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext, toHttpApiEvent } from '../../infra/local/apigw-event';
import { loadHandler } from '../../infra/local/handlers';
import { runAsFunction } from '../../infra/local/iam/hook';
import { type AnyRoute, functionIdOf, pathParameterNames } from '../../shared/http/route';
import { uniqueIp } from './api';
import { conforming, type Invoked, invoked } from './invoke';
import { ROOT } from './local-stack-process';

export type RouteRequest = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | object;
};

/**
 * Calls any route's handler module in this process (loaded from the route table's `handler`, as the
 * local gateway does) with the API Gateway v2 event of a concrete request: path parameters filled in,
 * query string, headers and body. Every parameter of the route's path must be given. The answer is
 * checked against the OpenAPI document (test/support/openapi-check.ts).
 */
export async function invokeRoute(route: AnyRoute, request: RouteRequest = {}): Promise<Invoked> {
  const params: Record<string, string> = {};
  for (const name of pathParameterNames(route.path)) {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`invokeRoute: ${route.id} needs the path parameter ${name}`);
    params[name] = value;
  }
  const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams(request.query ?? {}).toString();
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
  const event = toHttpApiEvent(
    {
      method: route.method,
      url: search ? `${path}?${search}` : path,
      headers: { 'content-type': 'application/json', ...request.headers },
      body,
      sourceIp: uniqueIp(),
      host: 'localhost',
    },
    `${route.method} ${route.path}`,
    params,
  );
  const handler = await loadHandler(ROOT, route.handler);
  // As the route's function: its AWS calls are evaluated against that function's role (infra/local/iam/).
  const result = await runAsFunction(functionIdOf(route), () => handler(event, lambdaContext(route.id)));
  return conforming(route, search ? `${path}?${search}` : path, invoked(result as APIGatewayProxyStructuredResultV2));
}
