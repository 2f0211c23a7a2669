import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { RateLimitedError, UnauthorizedError } from '../http/errors';
import { type Db, type Item, isConditionalCheckFailed, itemFromConditionFailure } from '../storage/dynamo';
import type { ItemKey } from '../storage/keys';
import { secondsUntilNextWindow, WINDOW_SECONDS, windowOf } from './window';

export type CounterHit = {
  table: string;
  key: ItemKey;
  limit: number;
  nowSeconds: number;
  /** Account counters: the call only counts while the account's key version still equals this. */
  keyVersion?: number;
  /** Return the counter item's attributes after the update (the account item for account counters). */
  returnItem?: boolean;
  /** IP counters expire by TTL; account counters live on the account item and never expire. */
  expires?: boolean;
};

const MAX_ATTEMPTS = 4;

/**
 * Counts one call in the current fixed window with one conditional UpdateItem in the common case:
 * `rlCnt + 1` only while the window is current, the count is under the limit and (for accounts) the
 * key version matches. When the condition fails, the old item tells why: wrong key version → 401,
 * full window → 429 with Retry-After, older window → a second conditional update opens the new window.
 */
export async function hitCounter(db: Db, hit: CounterHit): Promise<Item | undefined> {
  const window = windowOf(hit.nowSeconds);
  const versionCheck = hit.keyVersion === undefined ? '' : ' AND kv = :kv';
  const shared: Pick<UpdateCommandInput, 'TableName' | 'Key' | 'ReturnValues' | 'ReturnValuesOnConditionCheckFailure'> = {
    TableName: hit.table,
    Key: hit.key,
    ReturnValues: hit.returnItem ? 'ALL_NEW' : 'NONE',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
  const kvValue = hit.keyVersion === undefined ? {} : { ':kv': hit.keyVersion };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    try {
      const out = await db.send(
        new UpdateCommand({
          ...shared,
          UpdateExpression: 'SET rlCnt = rlCnt + :one',
          ConditionExpression: `rlWin = :w AND rlCnt < :limit${versionCheck}`,
          ExpressionAttributeValues: { ':one': 1, ':w': window, ':limit': hit.limit, ...kvValue },
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
      const ttl = hit.expires ? { ':ttl': (window + 2) * WINDOW_SECONDS } : {};
      const out = await db.send(
        new UpdateCommand({
          ...shared,
          UpdateExpression: hit.expires ? 'SET rlWin = :w, rlCnt = :one, #ttl = :ttl' : 'SET rlWin = :w, rlCnt = :one',
          ConditionExpression: `(attribute_not_exists(rlWin) OR rlWin <> :w)${versionCheck}`,
          ExpressionAttributeValues: { ':one': 1, ':w': window, ...ttl, ...kvValue },
          ...(hit.expires ? { ExpressionAttributeNames: { '#ttl': 'ttl' } } : {}),
        }),
      );
      return out.Attributes;
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      const old = itemFromConditionFailure(err);
      assertKeyVersion(hit, old);
      // Another call opened this window first: count again in it.
    }
  }
  throw new RateLimitedError(1);
}

function assertKeyVersion(hit: CounterHit, old: Item | undefined): void {
  if (hit.keyVersion === undefined) return;
  if (!old) throw new UnauthorizedError('Invalid token');
  if (old.kv !== hit.keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
}
