import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext, toHttpApiEvent } from '../../infra/local/apigw-event';
import { runAsFunction } from '../../infra/local/iam/hook';
import { type AnyRoute, functionIdOf } from '../../shared/http/route';
import { uniqueIp } from './api';
import { expectConforms, isServedRoute } from './openapi-check';

type Handler = (event: never, context: never) => Promise<unknown>;

export type Invoked = { status: number; headers: Record<string, string>; body: string; json: unknown };

/** Calls a pipeline handler in this process with the API Gateway v2 event the local gateway would build; the answer is checked against the OpenAPI document. */
export async function invoke(
  handler: Handler,
  route: AnyRoute,
  options: {
    headers?: Record<string, string>;
    body?: string | object;
    /** The function's timeout (default the API functions'). */ functionTimeoutMs?: number;
  } = {},
): Promise<Invoked> {
  const body = options.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  const event = toHttpApiEvent(
    {
      method: route.method,
      url: route.path,
      headers: { 'content-type': 'application/json', ...options.headers },
      body,
      sourceIp: uniqueIp(),
      host: 'localhost',
    },
    `${route.method} ${route.path}`,
    undefined,
  );
  // As the route's function: its AWS calls are evaluated against that function's role (infra/local/iam/).
  const result = await runAsFunction(functionIdOf(route), () => handler(event as never, lambdaContext(route.id, options.functionTimeoutMs) as never));
  return conforming(route, route.path, invoked(result as APIGatewayProxyStructuredResultV2));
}

/** Checks an in-process answer of a served route against the OpenAPI document (test-only routes, e.g. the probe, have none). */
export async function conforming(route: AnyRoute, url: string, answer: Invoked): Promise<Invoked> {
  if (isServedRoute(route.id)) await expectConforms({ method: route.method, url, status: answer.status, headers: answer.headers, body: answer.body });
  return answer;
}

/** A handler's API Gateway result as the tests read it (status, headers, text and parsed JSON). */
export function invoked(result: APIGatewayProxyStructuredResultV2): Invoked {
  const text = result.body ?? '';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: result.statusCode ?? 0, headers: (result.headers ?? {}) as Record<string, string>, body: text, json };
}
