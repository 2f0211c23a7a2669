import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext, toHttpApiEvent } from '../infra/local/apigw-event';
import type { HttpResult, PipelineContext } from '../shared/http/state';

/** A route's real Lambda handler (the middy pipeline), called in-process as Lambda would. */
export type RouteHandler = (event: APIGatewayProxyEventV2, context: PipelineContext) => Promise<HttpResult>;

export type RouteCall = {
  handler: RouteHandler;
  routeId: string;
  method: 'GET' | 'POST';
  /** The request's path, with its query string if any. */
  path: string;
  /** The route's path template (`/api/customer/{id}`), for the event's routeKey; default: the path. */
  template?: string;
  pathParameters?: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
  sourceIp: string;
};

export type Reply = { status: number; headers: Record<string, string>; body: string };

/** Builds the API Gateway HTTP API (payload 2.0) event the local gateway builds, and invokes the handler. */
export async function callRoute(call: RouteCall): Promise<Reply> {
  const body = call.body === undefined ? Buffer.alloc(0) : Buffer.from(call.body, 'utf8');
  const headers = call.body === undefined ? call.headers : { 'content-type': 'application/json', ...call.headers };
  const event = toHttpApiEvent(
    { method: call.method, url: call.path, headers, body, sourceIp: call.sourceIp, host: 'localhost' },
    `${call.method} ${call.template ?? call.path}`,
    call.pathParameters,
  );
  // The pipeline's first middleware sets context.state; the handler receives a plain Lambda context, as in AWS.
  const result = (await call.handler(event, lambdaContext(call.routeId) as PipelineContext)) as APIGatewayProxyStructuredResultV2;
  const replyHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) replyHeaders[name.toLowerCase()] = String(value);
  return { status: result.statusCode ?? 200, headers: replyHeaders, body: result.body ?? '' };
}

/** Throws with the answer when a route did not answer as the scenario expects. */
export function expectStatus(scenario: string, reply: Reply, status: number): Reply {
  if (reply.status !== status) throw new Error(`${scenario}: expected ${status}, got ${reply.status} ${reply.body.slice(0, 300)}`);
  return reply;
}
