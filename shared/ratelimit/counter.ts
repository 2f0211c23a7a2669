import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { RateLimitedError, UnauthorizedError } from '../errors';
import { type Db, type Item, isConditionalCheckFailed, itemFromConditionFailure } from '../storage/dynamo';
import { type RetryBudget, retryBudget, retryTransient } from '../storage/contention';
import { keys } from '../storage/keys';
import { secondsUntilNextWindow, WINDOW_SECONDS, windowOf } from './window';

export type IpHit = { table: string; limitClass: string; ip: string; limit: number; nowSeconds: number };

/**
 * Per-IP limits: one item per (class, IP, minute), so every call is ONE conditional UpdateItem:
 * `ADD rlCnt 1` while under the limit. The item expires by TTL shortly after its minute.
 */
export async function hitIpCounter(db: Db, hit: IpHit, budget: RetryBudget = retryBudget()): Promise<void> {
  const window = windowOf(hit.nowSeconds);
  try {
    await retryTransient(
      () =>
        db.send(
          new UpdateCommand({
            TableName: hit.table,
            Key: keys.ipCounter(hit.limitClass, hit.ip, window),
            UpdateExpression: 'ADD rlCnt :one SET #ttl = :ttl',
            ConditionExpression: 'attribute_not_exists(rlCnt) OR rlCnt < :limit',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':one': 1, ':limit': hit.limit, ':ttl': (window + 2) * WINDOW_SECONDS },
          }),
        ),
      budget,
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new RateLimitedError(secondsUntilNextWindow(hit.nowSeconds));
    throw err;
  }
}

export type AccountHit = {
  table: string;
  accountId: string;
  keyVersion: number;
  limit: number;
  nowSeconds: number;
  /** Return the account item after the update (write routes use its settings). */
  returnItem: boolean;
};

const MAX_ATTEMPTS = 4;

function assertKeyVersion(hit: AccountHit, old: Item | undefined): void {
  if (!old) throw new UnauthorizedError('Invalid token');
  if (old.kv !== hit.keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
}

/**
 * Per-account limits, counted on the account item itself so that the same conditional UpdateItem
 * also checks the token's key version (revocation is immediate, at no extra cost): `rlCnt + 1` while
 * the window is current, the count under the limit and `kv` equal to the token's. When the condition
 * fails, the old item tells why: other key version → 401; full window → 429 with Retry-After; older
 * window → a second conditional update opens the new window (once per account per minute).
 */
export async function hitAccountCounter(db: Db, hit: AccountHit, budget: RetryBudget = retryBudget()): Promise<Item | undefined> {
  const window = windowOf(hit.nowSeconds);
  const common = {
    TableName: hit.table,
    Key: keys.account(hit.accountId),
    ReturnValues: hit.returnItem ? ('ALL_NEW' as const) : ('NONE' as const),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const send = (command: UpdateCommand) => retryTransient(() => db.send(command), budget);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    try {
      const out = await send(
        new UpdateCommand({
          ...common,
          UpdateExpression: 'SET rlCnt = rlCnt + :one',
          ConditionExpression: 'rlWin = :w AND rlCnt < :limit AND kv = :kv',
          ExpressionAttributeValues: { ':one': 1, ':w': window, ':limit': hit.limit, ':kv': hit.keyVersion },
        }),
      );
      return out.Attributes;
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      const old = itemFromConditionFailure(err);
      assertKeyVersion(hit, old);
      if (old?.rlWin === window) throw new RateLimitedError(secondsUntilNextWindow(hit.nowSeconds));
    }
    try {
      const out = await send(
        new UpdateCommand({
          ...common,
          UpdateExpression: 'SET rlWin = :w, rlCnt = :one',
          ConditionExpression: '(attribute_not_exists(rlWin) OR rlWin <> :w) AND kv = :kv',
          ExpressionAttributeValues: { ':one': 1, ':w': window, ':kv': hit.keyVersion },
        }),
      );
      return out.Attributes;
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      assertKeyVersion(hit, itemFromConditionFailure(err));
      // Another call opened this window first: count again in it.
    }
  }
  throw new RateLimitedError(1);
}
