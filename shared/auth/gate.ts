import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { UnauthorizedError } from '../errors';
import { hitAccountCounter, hitIpCounter } from '../ratelimit/counter';
import type { RoutePolicy } from '../route-policy';
import type { Runtime } from '../runtime';
import type { Item } from '../storage/dynamo';
import { type RetryBudget, retryBudget } from '../storage/contention';
import { keys } from '../storage/keys';
import { unixSeconds } from '../clock';
import { bearerTokenFrom, verifyToken } from './token';

/** Who is calling: the account of a valid token, with the account item when the route writes. */
export type Caller = { accountId: string; keyVersion: number; account?: Item };

export type GateInput = { authorization: string | undefined; sourceIp: string };

async function requireKeyVersion(rt: Runtime, accountId: string, keyVersion: number): Promise<void> {
  const out = await rt.db.send(
    new GetCommand({ TableName: rt.config.tableName, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'kv' }),
  );
  if (!out.Item) throw new UnauthorizedError('Invalid token');
  if (out.Item.kv !== keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
}

function countIp(rt: Runtime, limitClass: 'auth' | 'cep' | 'checkout', ip: string, nowSeconds: number, budget: RetryBudget): Promise<void> {
  return hitIpCounter(rt.db, { table: rt.config.tableName, limitClass, ip, limit: rt.config.rateLimits[limitClass], nowSeconds }, budget);
}

/**
 * Authenticates and rate-limits one call. The common case (a Bearer route limited per account) is one
 * DynamoDB round trip: the signed token is checked in memory, and the conditional update that counts
 * the call also checks the token's key version, so rotated keys are refused at once.
 */
export async function admit(
  route: Pick<RoutePolicy, 'auth' | 'rateLimit' | 'access'>,
  input: GateInput,
  rt: Runtime,
  budget: RetryBudget = retryBudget(),
): Promise<Caller | undefined> {
  const nowSeconds = unixSeconds(rt.clock.now());
  if (route.auth !== 'bearer') {
    if (route.rateLimit === 'auth' || route.rateLimit === 'cep' || route.rateLimit === 'checkout')
      await countIp(rt, route.rateLimit, input.sourceIp, nowSeconds, budget);
    return undefined;
  }
  const token = bearerTokenFrom(input.authorization);
  const claims = verifyToken(token, (await rt.serviceKeys()).tokenSigning, nowSeconds);
  const caller: Caller = { accountId: claims.accountId, keyVersion: claims.keyVersion };
  if (route.rateLimit === 'account') {
    const account = await hitAccountCounter(
      rt.db,
      {
        table: rt.config.tableName,
        accountId: claims.accountId,
        keyVersion: claims.keyVersion,
        limit: rt.config.rateLimits.account,
        nowSeconds,
        returnItem: route.access === 'write',
      },
      budget,
    );
    return account ? { ...caller, account } : caller;
  }
  if (route.rateLimit === 'auth' || route.rateLimit === 'cep') {
    await Promise.all([countIp(rt, route.rateLimit, input.sourceIp, nowSeconds, budget), requireKeyVersion(rt, claims.accountId, claims.keyVersion)]);
    return caller;
  }
  await requireKeyVersion(rt, claims.accountId, claims.keyVersion);
  return caller;
}
