import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { AccountDisabledError, UnauthorizedError } from '../errors';
import { hitAccountCounter, hitIpCounter } from '../adapters/dynamo/rate-counter';
import type { QuotaState } from '../ratelimit/sliding-log';
import { countsFailedAuth, failedCredentialsClass, ipLimitClassOf, type IpLimitClass, type RoutePolicy } from '../route-policy';
import type { Runtime } from '../runtime';
import type { Item } from '../adapters/dynamo/dynamo';
import { type RetryBudget, retryBudget } from '../adapters/dynamo/contention';
import { keys } from '../adapters/dynamo/keys';
import { unixSeconds } from '../clock';
import { bearerTokenFrom, verifyToken } from './token';

/** Who is calling: the account of a valid token, with the account item when the route writes. */
export type Caller = { accountId: string; keyVersion: number; account?: Item };

export type GateInput = { authorization: string | undefined; sourceIp: string };

/** Who is calling (none on a public route), and the quota left of the limit the call was counted against (none when not counted). */
export type Admission = { caller: Caller | undefined; quota: QuotaState | undefined };

type GateRoute = Pick<RoutePolicy, 'auth' | 'rateLimit' | 'access'>;

async function requireKeyVersion(rt: Runtime, accountId: string, keyVersion: number): Promise<void> {
  const out = await rt.db.send(
    new GetCommand({ TableName: rt.config.tableName, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'kv, disabled' }),
  );
  if (!out.Item) throw new UnauthorizedError('Invalid token');
  if (out.Item.kv !== keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
  if (out.Item.disabled === true) throw new AccountDisabledError();
}

function countIp(rt: Runtime, limitClass: IpLimitClass, ip: string, now: Date, budget: RetryBudget): Promise<QuotaState> {
  return hitIpCounter(rt.db, { table: rt.config.tableName, limitClass, ip, limit: rt.config.rateLimits[limitClass], nowMs: now.getTime() }, budget);
}

async function admitBearer(route: GateRoute, input: GateInput, rt: Runtime, now: Date, budget: RetryBudget): Promise<Admission> {
  const token = bearerTokenFrom(input.authorization);
  const claims = verifyToken(token, (await rt.serviceKeys()).tokenSigning, unixSeconds(now));
  const caller: Caller = { accountId: claims.accountId, keyVersion: claims.keyVersion };
  if (route.rateLimit === 'account') {
    const { item: account, quota } = await hitAccountCounter(
      rt.db,
      {
        table: rt.config.tableName,
        accountId: claims.accountId,
        keyVersion: claims.keyVersion,
        limit: rt.config.rateLimits.account,
        nowMs: now.getTime(),
        returnItem: route.access === 'write',
      },
      budget,
    );
    return { caller: account ? { ...caller, account } : caller, quota };
  }
  const ipClass = ipLimitClassOf(route);
  if (ipClass) {
    const [quota] = await Promise.all([countIp(rt, ipClass, input.sourceIp, now, budget), requireKeyVersion(rt, claims.accountId, claims.keyVersion)]);
    return { caller, quota };
  }
  await requireKeyVersion(rt, claims.accountId, claims.keyVersion);
  return { caller, quota: undefined };
}

/**
 * Counts, per client IP, a call the route's own implementation refused for its credentials (a
 * 'failures' route: the provider's bad signatures): past the limit the answer is 429 instead.
 */
export async function countRefusedCredentials(route: GateRoute, sourceIp: string, rt: Runtime, budget: RetryBudget = retryBudget()): Promise<QuotaState | undefined> {
  // A Bearer route's failed tokens are counted by admit() itself.
  const limitClass = route.auth === 'bearer' ? undefined : failedCredentialsClass(route);
  return limitClass ? countIp(rt, limitClass, sourceIp, rt.clock.now(), budget) : undefined;
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

/**
 * Authenticates and rate-limits one call. The common case (a Bearer route limited per account) is one
 * DynamoDB round trip: the signed token is checked in memory, and the conditional update that logs
 * the call also checks the token's key version, so rotated keys are refused at once.
 *
 * Calls that cannot be counted per account are counted per client IP (spec 8, "or IP"): public routes
 * with table access in their class, and every Bearer call whose token fails (missing, malformed,
 * expired, revoked) in 'unauthenticated': past that limit the answer is 429 with Retry-After, not 401.
 */
export async function admit(route: GateRoute, input: GateInput, rt: Runtime, budget: RetryBudget = retryBudget()): Promise<Admission> {
  const now = rt.clock.now();
  if (route.auth !== 'bearer') {
    const ipClass = ipLimitClassOf(route);
    return { caller: undefined, quota: ipClass ? await countIp(rt, ipClass, input.sourceIp, now, budget) : undefined };
  }
  try {
    return await admitBearer(route, input, rt, now, budget);
  } catch (err) {
    // Counted: the refusal carries the quota left (its answer has the RateLimit-* headers too).
    if (err instanceof UnauthorizedError && countsFailedAuth(route)) throw new CountedRefusal(err, await countIp(rt, 'unauthenticated', input.sourceIp, now, budget));
    throw err;
  }
}
