/**
 * What a route asks of the gate and the pipeline, apart from HTTP itself: who may call it, which
 * counter it spends, what table access it has, and its idempotency. The route table
 * (shared/http/routes.ts) sets these per route; shared/domain/auth and shared/domain/idempotency-key.ts read them from here.
 */

/** none: public; basic: the key exchange; bearer: an account token. */
export type AuthKind = 'none' | 'basic' | 'bearer';
/**
 * Which counter a call spends (spec 8): auth, cep, checkout and public per client IP, account per
 * authenticated account. 'none' on a public route with table access counts as 'public' (ipLimitClassOf).
 * 'failures': a route that authenticates its calls itself (the provider's signed notifications) spends
 * 'public' only for the calls it refuses for their credentials: a provider that signs is never limited
 * per address (all its notifications come from a few addresses), a flood of unsigned ones is.
 */
export type RateLimitClass = 'none' | 'auth' | 'cep' | 'checkout' | 'public' | 'account' | 'failures';
/** none: no table access; read: may only read business items (it still counts its own calls); write: full item access. */
export type Access = 'none' | 'read' | 'write';
export type IdempotencyMode = 'none' | 'optional' | 'required';

/** The policy fields of a route. */
export type RoutePolicy = { auth: AuthKind; rateLimit: RateLimitClass; access: Access; idempotency: IdempotencyMode };

/**
 * The per-IP counters (shared/adapters/dynamo/rate-counter.ts), each with its own limit (shared/platform/config.ts):
 * - auth, cep, checkout: the routes that name them;
 * - public: the other unauthenticated routes that touch the table (the provider's notifications, the
 *   boleto page); a route without table access (the OpenAPI document) is not counted: counting
 *   would cost it a table write it otherwise never makes, and API Gateway's stage throttle bounds it;
 * - unauthenticated: every call of a Bearer route whose token is missing, malformed, expired or
 *   revoked (counted only when the token fails, so a valid token costs nothing more).
 */
export type IpLimitClass = 'auth' | 'cep' | 'checkout' | 'public' | 'unauthenticated';

/** The per-IP counter every call of the route spends before its handler runs, if any. */
export function ipLimitClassOf(route: Pick<RoutePolicy, 'auth' | 'rateLimit' | 'access'>): IpLimitClass | undefined {
  if (route.rateLimit === 'auth' || route.rateLimit === 'cep' || route.rateLimit === 'checkout' || route.rateLimit === 'public') return route.rateLimit;
  if (route.rateLimit === 'none' && route.auth === 'none' && route.access !== 'none') return 'public';
  return undefined;
}

/** Whether a failed Bearer token is counted per IP (the 'unauthenticated' class). */
export function countsFailedAuth(route: Pick<RoutePolicy, 'auth'>): boolean {
  return route.auth === 'bearer';
}

/** The per-IP counter a call refused for its credentials spends: a failed token, or a refused signature on a 'failures' route. */
export function failedCredentialsClass(route: Pick<RoutePolicy, 'auth' | 'rateLimit'>): IpLimitClass | undefined {
  if (countsFailedAuth(route)) return 'unauthenticated';
  return route.rateLimit === 'failures' ? 'public' : undefined;
}

/** Whether every call of the route is counted (per account or per IP) before its implementation runs. */
export function countsEveryCall(route: Pick<RoutePolicy, 'auth' | 'rateLimit' | 'access'>): boolean {
  return route.rateLimit === 'account' || ipLimitClassOf(route) !== undefined;
}

/** Whether the route may answer 429: it spends a counter, or counts failed credentials. */
export function mayBeRateLimited(route: Pick<RoutePolicy, 'auth' | 'rateLimit' | 'access'>): boolean {
  return countsEveryCall(route) || failedCredentialsClass(route) !== undefined;
}
