import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { errorApiResult } from './answer';
import { toErrorAnswer } from './errors';
import { MethodNotAllowedError } from '../domain/errors';
import { type AnyRoute, routeKeyOf } from './route';

type RouteHandler<Context> = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/**
 * The handler of a function several routes share (`fn` in the route table): each call goes to its
 * route's handler by the route key API Gateway gives it. Where the function serves one path with
 * several methods, the stack gives that path one `ANY` route (one CloudFormation resource, not one per
 * method: sharedRouteKeys): the request's method then picks the row, and a method of no row is the
 * JSON 405 (with Allow) the $default route gives. A route key the function does not serve cannot come
 * from the stack (its routes are the table's); it fails loudly rather than guess.
 */
export function routeGroupHandler<Context>(entries: readonly (readonly [AnyRoute, RouteHandler<Context>])[]): RouteHandler<Context> {
  const byKey = new Map(entries.map(([route, handler]) => [routeKeyOf(route), handler]));
  return async (event, context) => {
    const anyPath = event.routeKey.startsWith('ANY ') ? event.routeKey.slice('ANY '.length) : undefined;
    const handler = byKey.get(anyPath === undefined ? event.routeKey : `${event.requestContext.http.method} ${anyPath}`);
    if (handler) return handler(event, context);
    if (anyPath !== undefined) {
      const allowed = entries.filter(([route]) => route.path === anyPath).map(([route]) => route.method);
      if (allowed.length > 0) return errorApiResult(toErrorAnswer(new MethodNotAllowedError(allowed)));
    }
    throw new Error(`This function serves no route ${event.routeKey}`);
  };
}

/**
 * The API Gateway route keys of a shared function's rows: one `ANY <path>` for a path it serves with
 * several methods, else the row's own `<METHOD> <path>`; each with the rows it stands for.
 */
export function sharedRouteKeys(group: readonly AnyRoute[]): { method: AnyRoute['method'] | 'ANY'; path: string; routes: AnyRoute[] }[] {
  const byPath = new Map<string, AnyRoute[]>();
  for (const route of group) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  return [...byPath].map(([path, routes]) => ({ method: routes.length > 1 ? 'ANY' : (routes[0] as AnyRoute).method, path, routes }));
}
