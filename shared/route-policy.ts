/**
 * What a route asks of the gate and the pipeline, apart from HTTP itself: who may call it, which
 * counter it spends, what table access it has, and its idempotency. The route table
 * (shared/http/routes.ts) sets these per route; shared/auth and shared/idempotency read them from here.
 */

/** none: public; basic: the key exchange; bearer: an account token. */
export type AuthKind = 'none' | 'basic' | 'bearer';
/** Which counter a call spends (spec 8): auth, cep and checkout per client IP, account per authenticated account. */
export type RateLimitClass = 'none' | 'auth' | 'cep' | 'checkout' | 'account';
/** none: no table access; read: may only read business items (it still counts its own calls); write: full item access. */
export type Access = 'none' | 'read' | 'write';
export type IdempotencyMode = 'none' | 'optional' | 'required';

/** The policy fields of a route. */
export type RoutePolicy = { auth: AuthKind; rateLimit: RateLimitClass; access: Access; idempotency: IdempotencyMode };
