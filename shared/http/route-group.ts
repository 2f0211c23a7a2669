import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type AnyRoute, routeKeyOf } from './route';

type RouteHandler<Context> = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/**
 * The handler of a function several routes share (`fn` in the route table): each call goes to its
 * route's handler by the route key API Gateway gives it. A route key the function does not serve
 * cannot come from the stack (its routes are the table's); it fails loudly rather than guess.
 */
export function routeGroupHandler<Context>(entries: readonly (readonly [AnyRoute, RouteHandler<Context>])[]): RouteHandler<Context> {
  const byKey = new Map(entries.map(([route, handler]) => [routeKeyOf(route), handler]));
  return (event, context) => {
    const handler = byKey.get(event.routeKey);
    if (!handler) throw new Error(`This function serves no route ${event.routeKey}`);
    return handler(event, context);
  };
}
