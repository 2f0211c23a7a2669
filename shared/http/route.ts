import type { ZodType } from 'zod';
import type { ChangeKind } from '../domain/changes';
import type { RailMethod } from '../domain/rail-limits';
import type { Access, AuthKind, IdempotencyMode, RateLimitClass } from '../domain/route-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDef {
  description: string;
  schema?: ZodType;
  contentType?: string;
}

export interface RouteDef<
  Body extends ZodType | undefined = ZodType | undefined,
  Query extends ZodType | undefined = ZodType | undefined,
  Params extends ZodType | undefined = ZodType | undefined,
> {
  /** Unique id: names the Lambda function and the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. /api/invoice/{invoice_id}. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /**
   * The function serving it when several rows share one (the merchant panel's areas, issue 27: a few
   * functions, not one per page): rows naming the same function share its handler module, which answers
   * each by its route key. Default: a function of its own, named by its id.
   */
  fn?: string;
  auth: AuthKind;
  rateLimit: RateLimitClass;
  access: Access;
  idempotency: IdempotencyMode;
  /** The status of a malformed query: 422 with the fields (default), or 400 where the spec says so. */
  badQueryStatus?: 400 | 422;
  /** Reads the master key though it authenticates no one (e.g. signed links, sealed data); bearer and basic routes always do. */
  usesMasterKey?: boolean;
  /** Answers a browser: its errors are HTML pages (the handler gives the page), documented as text/html. */
  browser?: boolean;
  /** Reads the payment providers' credentials (Secrets Manager). */
  usesProviderCredentials?: boolean;
  /**
   * Calls the Pix provider (creates Pix charges or reads them back): with PAYMENT_PROVIDER=apipix the
   * function gets the APIPIX_* settings and may read the API Pix secret (mTLS certificate, client secret).
   */
  usesPixProvider?: boolean;
  /** A charge creation: the rail whose ceiling bounds the invoice total (the OpenAPI document's `x-total-ceiling`). */
  totalCeiling?: RailMethod;
  /**
   * The kinds of change its use case may say (shared/domain/changes.ts): the pipeline refuses to commit
   * any other, and the function's table grants for its changes derive from these (none: it changes nothing).
   */
  changes?: readonly ChangeKind[];
  /** Run the implementation again when a drawn id clashes at commit (only where the implementation has no outside effect). */
  retryOnIdClash?: boolean;
  summary: string;
  description?: string;
  tag: string;
  /**
   * `form`: an application/x-www-form-urlencoded body the implementation reads itself (its schema only
   * describes it in the OpenAPI document; no JSON parsing).
   */
  request: { body?: Body; query?: Query; params?: Params; form?: ZodType };
  responses: Record<number, ResponseDef>;
}

export function defineRoute<
  Body extends ZodType | undefined = undefined,
  Query extends ZodType | undefined = undefined,
  Params extends ZodType | undefined = undefined,
>(route: RouteDef<Body, Query, Params>): RouteDef<Body, Query, Params> {
  return route;
}

export type AnyRoute = RouteDef<ZodType | undefined, ZodType | undefined, ZodType | undefined>;

/** The id of the function serving a route: its own (its id), or the one it shares (`fn`). */
export function functionIdOf(route: Pick<AnyRoute, 'id' | 'fn'>): string {
  return route.fn ?? route.id;
}

/** The route key API Gateway gives each call of the route (`event.routeKey`), e.g. `GET /panel/entrar`. */
export function routeKeyOf(route: Pick<AnyRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/**
 * The routes grouped by the function serving them, in the table's order. Rows that share a function
 * must share its handler module, and a shared function's id may not be another row's own id.
 */
export function routeFunctions(list: readonly AnyRoute[]): Map<string, AnyRoute[]> {
  for (const route of list) {
    if (route.fn !== undefined && list.some((other) => other.id === route.fn))
      throw new Error(`Function ${route.fn} of route ${route.id} is another route's id`);
  }
  const groups = new Map<string, AnyRoute[]>();
  for (const route of list) {
    const id = functionIdOf(route);
    const group = groups.get(id) ?? [];
    const first = group[0];
    if (first && first.handler !== route.handler) throw new Error(`Routes ${first.id} and ${route.id} share function ${id} but not its handler module`);
    group.push(route);
    groups.set(id, group);
  }
  return groups;
}

const PARAM = /\{([A-Za-z0-9_]+)\}/g;

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1] ?? '');
}

/** Compiles a path template into a matcher returning its decoded parameters, or null. */
export function compilePath(path: string): (actual: string) => Record<string, string> | null {
  const names = pathParameterNames(path);
  const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, '([^/]+)')}$`);
  return (actual) => {
    const match = pattern.exec(actual);
    if (!match) return null;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      const raw = match[i + 1] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    });
    return params;
  };
}

export type RouteMatch = { kind: 'found'; route: AnyRoute; params: Record<string, string> } | { kind: 'method'; allowed: string[] } | { kind: 'none' };

/** Finds the route for a method and path: found, known path with another method (405), or unknown (404). */
export function createRouter(routes: readonly AnyRoute[]): (method: string, path: string) => RouteMatch {
  const compiled = routes.map((route) => ({ route, match: compilePath(route.path) }));
  return (method, path) => {
    const allowed: string[] = [];
    for (const { route, match } of compiled) {
      const params = match(path);
      if (!params) continue;
      if (route.method === method.toUpperCase()) return { kind: 'found', route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  };
}

/** The security schemes the OpenAPI document names. */
export type SecuritySchemeName = 'basicAuth' | 'bearerAuth' | 'simulatedSignature';

/**
 * A body a route's implementation reads raw (to check a signature over its exact bytes, or to parse a
 * third party's shape itself): documented only. `security`: the scheme that authenticates it, when
 * OpenAPI can name one (a path token cannot be).
 */
export type RawRequest = { mediaType: string; schema: ZodType; description: string; security?: SecuritySchemeName };
