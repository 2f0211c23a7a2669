import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AccountDisabledError, RateLimitedError, UnauthorizedError } from '../../domain/errors';
import { type Db, type Item, isConditionalCheckFailed, itemFromConditionFailure } from './dynamo';
import { type RetryBudget, retryBudget, retryTransient } from './contention';
import { type ItemKey, keys } from './keys';
import { cutoffOf, decide, isCurrentLog, logQuota, normalizeLog, type QuotaState, usesSlidingLog, WINDOW_MS } from '../../domain/sliding-log';
import { secondsUntilNextWindow, WINDOW_SECONDS, windowOf, windowQuota } from '../../domain/rate-limit-window';

/** The attribute holding a sliding log (shared/domain/sliding-log.ts), on the account item and on RL# items. */
export const LOG_ATTRIBUTE = 'rlLog';

/*
 * How a log's times are stored: tenths of a second since 2026-01-01, rounded UP (the domain reasons in
 * epoch milliseconds). Nine digits where epoch milliseconds take thirteen: a full log of 60 is about
 * 120 bytes smaller, which keeps an account item with its log and its webhook settings within one
 * write unit (1 KB) for the gate's count on every call (issue 26). Rounding up only delays when an
 * entry leaves the window (by under 0.1 s): the limit stays exact, never looser. Entries written
 * before, in epoch milliseconds, are told apart by their size and read as such; the next slow-path
 * write stores the whole log in tenths.
 */
const STORED_EPOCH_MS = Date.UTC(2026, 0, 1);
const STORED_UNIT_MS = 100;
/** Stored times from this on are epoch milliseconds (tenths since 2026 stay below it until about 2057). */
const EPOCH_MS_FROM = 1e11;

/** A time as a log stores it (at least 1: 0 is a free slot). */
export function storedLogTime(ms: number): number {
  return Math.max(1, Math.ceil((ms - STORED_EPOCH_MS) / STORED_UNIT_MS));
}

/** The latest stored time an entry may have to be out of a window that ends at `cutoffMs`. */
export function storedCutoff(cutoffMs: number): number {
  return Math.floor((cutoffMs - STORED_EPOCH_MS) / STORED_UNIT_MS);
}

/** A stored log as the domain reads it (epoch milliseconds, 0 for a free slot); anything else is left for normalizeLog. */
export function logOfStored(stored: unknown): unknown {
  if (!Array.isArray(stored)) return stored;
  return stored.map((t: unknown) => (typeof t !== 'number' || t === 0 || t >= EPOCH_MS_FROM ? t : t * STORED_UNIT_MS + STORED_EPOCH_MS));
}

/** A log of the domain (epoch milliseconds) as it is stored. */
function storedOfLog(log: readonly number[]): number[] {
  return log.map((ms) => (ms === 0 ? 0 : storedLogTime(ms)));
}

/** Whether a stored log is exactly as the one-write check expects it: `limit` entries, every one in tenths. */
function isCurrentStoredLog(stored: unknown, limit: number): boolean {
  return isCurrentLog(stored, limit) && stored.every((t) => t < EPOCH_MS_FROM);
}

/** A per-IP log item: one per (class, IP), kept while calls come (TTL two windows after the last admitted call). */
export function ipLogKey(limitClass: string, ip: string): ItemKey {
  return { PK: `RL#${limitClass}#${ip}`, SK: 'RL' };
}

/** An admitted call: the quota left, and the item after the update when the caller asked for it. */
export type Admitted = { item: Item | undefined; quota: QuotaState };

export type IpHit = { table: string; limitClass: string; ip: string; limit: number; nowMs: number };

export type AccountHit = {
  table: string;
  accountId: string;
  keyVersion: number;
  limit: number;
  nowMs: number;
  /** Return the account item after the update (write routes use its settings). */
  returnItem: boolean;
};

const MAX_ATTEMPTS = 4;

function assertKeyVersion(keyVersion: number, old: Item | undefined): void {
  if (!old) throw new UnauthorizedError('Invalid token');
  if (old.kv !== keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
  if (old.disabled === true) throw new AccountDisabledError();
}

/** The account item's part of a counting update's condition: the token's key version, and the account not disabled. */
const ACCOUNT_USABLE = 'kv = :kv AND (attribute_not_exists(disabled) OR disabled = :enabled)';

/** What one log item is, for the shared algorithm below. */
type LogTarget = {
  table: string;
  key: ItemKey;
  limit: number;
  nowMs: number;
  /** The account item: every write also checks the token's key version, and a missing item is a 401. */
  keyVersion?: number;
  /** RL# items: the epoch second after which DynamoDB may delete the item. */
  ttl?: number;
  returnItem: boolean;
};

function guards(target: LogTarget): { condition: string; names: Record<string, string>; values: Record<string, unknown>; set: string } {
  const names: Record<string, string> = { '#log': LOG_ATTRIBUTE };
  const values: Record<string, unknown> = {};
  let condition = '';
  let set = '';
  if (target.keyVersion !== undefined) {
    condition = ` AND ${ACCOUNT_USABLE}`;
    values[':kv'] = target.keyVersion;
    values[':enabled'] = false;
  }
  if (target.ttl !== undefined) {
    set = ', #ttl = :ttl';
    names['#ttl'] = 'ttl';
    values[':ttl'] = target.ttl;
  }
  return { condition, names, values, set };
}

/**
 * Sliding-log admission (shared/domain/sliding-log.ts) with DynamoDB conditional writes, exact
 * across instances: the common case is ONE UpdateItem, `size(log) = L AND log[0] <= now - 60 s`, that
 * drops the oldest entry and appends now. When the condition fails, the old item (ALL_OLD) tells why:
 * another key version → 401; a full log → 429 with the exact seconds until its oldest entry leaves
 * the window; no log yet, or one written under another limit → it is rebuilt from the old one and
 * written conditioned on the old one being unchanged (once per item, or per limit change).
 */
async function hitLog(db: Db, target: LogTarget, budget: RetryBudget): Promise<Admitted> {
  const { condition, names, values, set } = guards(target);
  // The new item always comes back (no extra capacity): its log gives the quota left.
  const common = {
    TableName: target.table,
    Key: target.key,
    ReturnValues: 'ALL_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const admitted = (item: Item | undefined): Admitted => ({
    item: target.returnItem ? item : undefined,
    quota: logQuota(normalizeLog(logOfStored(item?.[LOG_ATTRIBUTE]), target.limit), target.limit, target.nowMs),
  });
  const send = (command: UpdateCommand) => retryTransient(() => db.send(command), budget);
  const checkOld = (old: Item | undefined) => {
    if (target.keyVersion !== undefined) assertKeyVersion(target.keyVersion, old);
  };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    let old: Item | undefined;
    try {
      const out = await send(
        new UpdateCommand({
          ...common,
          UpdateExpression: `SET #log[${target.limit}] = :now${set} REMOVE #log[0]`,
          ConditionExpression: `size(#log) = :limit AND #log[0] <= :cutoff${condition}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ...values,
            ':now': storedLogTime(target.nowMs),
            ':limit': target.limit,
            ':cutoff': storedCutoff(cutoffOf(target.nowMs)),
          },
        }),
      );
      return admitted(out.Attributes);
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      old = itemFromConditionFailure(err);
      checkOld(old);
    }
    const stored: unknown = old?.[LOG_ATTRIBUTE];
    const decision = decide(normalizeLog(logOfStored(stored), target.limit), target.nowMs);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds, target.limit);
    // A current log that admits the call now: it changed under us (another call's write); count again.
    if (isCurrentStoredLog(stored, target.limit)) continue;
    try {
      const out = await send(
        new UpdateCommand({
          ...common,
          UpdateExpression: `SET #log = :log${set}`,
          ConditionExpression: `${stored === undefined ? 'attribute_not_exists(#log)' : '#log = :old'}${condition}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ':log': storedOfLog(decision.log), ...(stored === undefined ? {} : { ':old': stored }) },
        }),
      );
      return admitted(out.Attributes);
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      checkOld(itemFromConditionFailure(err));
      // Another call wrote the log first: count again against what it wrote.
    }
  }
  throw new RateLimitedError(1, target.limit);
}

/**
 * Per-IP limits: one log item per (class, IP). Limits above MAX_LOGGED_LIMIT (load tests) fall back
 * to fixed one-minute windows: one item per (class, IP, minute), `ADD rlCnt 1` while under the limit.
 */
export async function hitIpCounter(db: Db, hit: IpHit, budget: RetryBudget = retryBudget()): Promise<QuotaState> {
  if (usesSlidingLog(hit.limit)) {
    const { quota } = await hitLog(
      db,
      {
        table: hit.table,
        key: ipLogKey(hit.limitClass, hit.ip),
        limit: hit.limit,
        nowMs: hit.nowMs,
        ttl: Math.ceil((hit.nowMs + 2 * WINDOW_MS) / 1000),
        returnItem: false,
      },
      budget,
    );
    return quota;
  }
  const nowSeconds = hit.nowMs / 1000;
  const window = windowOf(nowSeconds);
  try {
    const out = await retryTransient(
      () =>
        db.send(
          new UpdateCommand({
            TableName: hit.table,
            Key: keys.ipCounter(hit.limitClass, hit.ip, window),
            UpdateExpression: 'ADD rlCnt :one SET #ttl = :ttl',
            ConditionExpression: 'attribute_not_exists(rlCnt) OR rlCnt < :limit',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':one': 1, ':limit': hit.limit, ':ttl': (window + 2) * WINDOW_SECONDS },
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      budget,
    );
    return windowQuota(Number(out.Attributes?.rlCnt ?? hit.limit), hit.limit, nowSeconds);
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new RateLimitedError(secondsUntilNextWindow(nowSeconds), hit.limit);
    throw err;
  }
}

/**
 * Per-account limits, logged on the account item itself so that the same conditional UpdateItem also
 * checks the token's key version (revocation is immediate, at no extra cost).
 */
export async function hitAccountCounter(db: Db, hit: AccountHit, budget: RetryBudget = retryBudget()): Promise<Admitted> {
  if (usesSlidingLog(hit.limit)) {
    return hitLog(
      db,
      { table: hit.table, key: keys.account(hit.accountId), limit: hit.limit, nowMs: hit.nowMs, keyVersion: hit.keyVersion, returnItem: hit.returnItem },
      budget,
    );
  }
  return hitAccountWindow(db, hit, budget);
}

/**
 * Fixed one-minute windows on the account item, for limits above MAX_LOGGED_LIMIT: `rlCnt + 1` while
 * the window is current, the count under the limit and `kv` equal to the token's; an older window is
 * reopened by a second conditional update (once per account per minute).
 */
async function hitAccountWindow(db: Db, hit: AccountHit, budget: RetryBudget): Promise<Admitted> {
  const nowSeconds = hit.nowMs / 1000;
  const window = windowOf(nowSeconds);
  const common = {
    TableName: hit.table,
    Key: keys.account(hit.accountId),
    ReturnValues: 'ALL_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const admitted = (item: Item | undefined): Admitted => ({
    item: hit.returnItem ? item : undefined,
    quota: windowQuota(Number(item?.rlCnt ?? hit.limit), hit.limit, nowSeconds),
  });
  const send = (command: UpdateCommand) => retryTransient(() => db.send(command), budget);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    try {
      const out = await send(
        new UpdateCommand({
          ...common,
          UpdateExpression: 'SET rlCnt = rlCnt + :one',
          ConditionExpression: `rlWin = :w AND rlCnt < :limit AND ${ACCOUNT_USABLE}`,
          ExpressionAttributeValues: { ':one': 1, ':w': window, ':limit': hit.limit, ':kv': hit.keyVersion, ':enabled': false },
        }),
      );
      return admitted(out.Attributes);
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      const old = itemFromConditionFailure(err);
      assertKeyVersion(hit.keyVersion, old);
      if (old?.rlWin === window) throw new RateLimitedError(secondsUntilNextWindow(nowSeconds), hit.limit);
    }
    try {
      const out = await send(
        new UpdateCommand({
          ...common,
          UpdateExpression: 'SET rlWin = :w, rlCnt = :one',
          ConditionExpression: `(attribute_not_exists(rlWin) OR rlWin <> :w) AND ${ACCOUNT_USABLE}`,
          ExpressionAttributeValues: { ':one': 1, ':w': window, ':kv': hit.keyVersion, ':enabled': false },
        }),
      );
      return admitted(out.Attributes);
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      assertKeyVersion(hit.keyVersion, itemFromConditionFailure(err));
    }
  }
  throw new RateLimitedError(1, hit.limit);
}
