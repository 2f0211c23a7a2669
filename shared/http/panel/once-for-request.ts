import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const done = new WeakMap<APIGatewayProxyEventV2, Promise<unknown>>();

/**
 * Runs `step` once for a request, however many times its route's implementation runs (a route that
 * runs again when a drawn id clashes or a balance shard moved). For a step that may happen only once,
 * such as using a step-up code: the runs after the first share its outcome.
 */
export function onceForRequest<T>(event: APIGatewayProxyEventV2, step: () => Promise<T>): Promise<T> {
  const earlier = done.get(event) as Promise<T> | undefined;
  if (earlier) return earlier;
  const running = step();
  done.set(event, running);
  return running;
}
