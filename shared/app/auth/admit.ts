import { bearerTokenFrom, verifyToken } from '../../domain/auth/token';
import { unixSeconds } from '../../ports/clock';
import type { Caller } from '../../domain/account';
import { addressKey } from '../../domain/client-address';
import type { QuotaState } from '../../domain/sliding-log';
import { AccountDisabledError, UnauthorizedError } from '../../domain/errors';
import type { GateStore } from '../../ports/gate';
import { countsFailedAuth, failedCredentialsClass, ipLimitClassOf, type IpLimitClass, type RoutePolicy } from '../../domain/route-policy';

export type { Caller };

export type GateInput = { authorization: string | undefined; sourceIp: string };

/** Who is calling (none on a public route), and the quota left of the limit the call was counted against (none when not counted). */
export type Admission = { caller: Caller | undefined; quota: QuotaState | undefined };

type GateRoute = Pick<RoutePolicy, 'auth' | 'rateLimit' | 'access'>;

/** What admission needs: the counters, the token-signing key, the limits per class, and the call's time. */
export type GatePorts = {
  store: GateStore;
  tokenSigningKey: () => Promise<Buffer>;
  limits: Readonly<Record<IpLimitClass | 'account', number>>;
  now: Date;
};

async function requireKeyVersion(ports: GatePorts, accountId: string, keyVersion: number): Promise<void> {
  const state = await ports.store.keyState(accountId);
  if (!state) throw new UnauthorizedError('Invalid token');
  if (state.keyVersion !== keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
  if (state.disabled) throw new AccountDisabledError();
}

/** One call counted against the client's address: an IPv6 one under its /64 (addressKey). */
function countIp(ports: GatePorts, limitClass: IpLimitClass, ip: string): Promise<QuotaState> {
  return ports.store.countIpCall({ limitClass, ip: addressKey(ip), limit: ports.limits[limitClass], nowMs: ports.now.getTime() });
}

/** The caller a Bearer token names, checked in memory (signature, expiry): no table read. */
async function tokenCaller(input: GateInput, ports: GatePorts): Promise<Caller> {
  const claims = verifyToken(bearerTokenFrom(input.authorization), await ports.tokenSigningKey(), unixSeconds(ports.now));
  return { accountId: claims.accountId, keyVersion: claims.keyVersion };
}

/** The account's count of this call (one conditional update that also checks the key version); a write route gets the account's settings back. */
async function countAccount(route: GateRoute, caller: Caller, ports: GatePorts): Promise<Admission> {
  const { account, quota } = await ports.store.countAccountCall({
    accountId: caller.accountId,
    keyVersion: caller.keyVersion,
    limit: ports.limits.account,
    nowMs: ports.now.getTime(),
    withAccount: route.access === 'write',
  });
  return { caller: account ? { ...caller, account } : caller, quota };
}

async function admitBearer(route: GateRoute, input: GateInput, ports: GatePorts): Promise<Admission> {
  const caller = await tokenCaller(input, ports);
  if (route.rateLimit === 'account') return countAccount(route, caller, ports);
  const ipClass = ipLimitClassOf(route);
  if (ipClass) {
    const [quota] = await Promise.all([countIp(ports, ipClass, input.sourceIp), requireKeyVersion(ports, caller.accountId, caller.keyVersion)]);
    return { caller, quota };
  }
  await requireKeyVersion(ports, caller.accountId, caller.keyVersion);
  return { caller, quota: undefined };
}

/**
 * Counts, per client IP, a call the route's own implementation refused for its credentials (a
 * 'failures' route: the provider's bad signatures): past the limit the answer is 429 instead.
 */
export async function countRefusedCredentials(route: GateRoute, sourceIp: string, ports: GatePorts): Promise<QuotaState | undefined> {
  // A Bearer route's failed tokens are counted by admit() itself.
  const limitClass = route.auth === 'bearer' ? undefined : failedCredentialsClass(route);
  return limitClass ? countIp(ports, limitClass, sourceIp) : undefined;
}

/** A call refused for its credentials after it was counted: the refusal, with the quota left of the limit it was counted against. */
export class CountedRefusal extends Error {
  constructor(
    readonly refusal: unknown,
    readonly quota: QuotaState,
  ) {
    super('counted refusal');
    this.name = 'CountedRefusal';
  }
}

/** A failed token on a route that counts them: counted per IP, then refused with the quota left. */
async function countedRefusal(route: GateRoute, input: GateInput, ports: GatePorts, err: unknown): Promise<never> {
  if (err instanceof UnauthorizedError && countsFailedAuth(route)) throw new CountedRefusal(err, await countIp(ports, 'unauthenticated', input.sourceIp));
  throw err;
}

/**
 * Whether the route's gate (the account's count) goes out beside the request's first work (issue 26):
 * a Bearer route counted per account knows its caller from the token in memory, so its idempotency
 * lock, or its read, needs nothing from the gate.
 */
export function gateGoesBeside(route: GateRoute): boolean {
  return route.auth === 'bearer' && route.rateLimit === 'account';
}

/**
 * Whether the route's read goes out beside the gate: a read of such a route reads only what the token's
 * account and the path name, and changes nothing; its answer waits for both, and a refusal of the gate
 * (401, 403, 429) throws the read away.
 */
export function readsBesideTheGate(route: GateRoute): boolean {
  return gateGoesBeside(route) && route.access === 'read';
}

/**
 * Admission beside the work: the caller from its token at once (a bad token is refused here, counted
 * per IP), and the account's count still running (a write route gets the account's settings back): its
 * refusal (revoked keys, a disabled account, the limit) is what the call answers, whatever the work found.
 */
export async function admitBesideTheWork(route: GateRoute, input: GateInput, ports: GatePorts): Promise<{ caller: Caller; admission: Promise<Admission> }> {
  let caller: Caller;
  try {
    caller = await tokenCaller(input, ports);
  } catch (err) {
    return countedRefusal(route, input, ports, err);
  }
  const admission = countAccount(route, caller, ports).catch((err: unknown) => countedRefusal(route, input, ports, err));
  return { caller, admission };
}

/**
 * Authenticates and rate-limits one call. The common case (a Bearer route limited per account) is one
 * DynamoDB round trip: the signed token is checked in memory, and the conditional update that logs
 * the call also checks the token's key version, so rotated keys are refused at once.
 *
 * Calls that cannot be counted per account are counted per client IP (spec 8, "or IP"): public routes
 * with table access in their class, and every Bearer call whose token fails (missing, malformed,
 * expired, revoked) in 'unauthenticated': past that limit the answer is 429 with Retry-After, not 401.
 */
export async function admit(route: GateRoute, input: GateInput, ports: GatePorts): Promise<Admission> {
  if (route.auth !== 'bearer') {
    const ipClass = ipLimitClassOf(route);
    return { caller: undefined, quota: ipClass ? await countIp(ports, ipClass, input.sourceIp) : undefined };
  }
  try {
    return await admitBearer(route, input, ports);
  } catch (err) {
    // Counted: the refusal carries the quota left (its answer has the RateLimit-* headers too).
    return countedRefusal(route, input, ports, err);
  }
}
