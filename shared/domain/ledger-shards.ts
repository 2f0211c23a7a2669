/**
 * Balance shards (issue 13, docs/scaling.md): an account's available balance is the sum of S shard
 * items, each under its own partition key, so the credits of one busy account spread over S keys.
 * Pure rules only: which shard a movement lands on, and how a debit that must be covered is taken.
 */

/** The shard count of a new account (stored on its account item at creation: it may only be raised later). */
export const BALANCE_SHARDS = 16;
/** The most shards an account may have: one covered debit writes at most this many shards in one transaction (≤ 100 items). */
export const MAX_BALANCE_SHARDS = 64;

/** The account item's shard count (`balanceShards`); an item without one has the default. */
export function shardCountOf(account: { balanceShards?: unknown } | undefined): number {
  const count = Number(account?.balanceShards);
  return Number.isSafeInteger(count) && count >= 1 && count <= MAX_BALANCE_SHARDS ? count : BALANCE_SHARDS;
}

/** The sum of shard values (cents): an account's balance is the sum of its shards. */
export function sumOf(shards: readonly number[]): number {
  return shards.reduce((total, value) => total + value, 0);
}

/** FNV-1a (32 bits) of the reference's UTF-16 code units: deterministic, no I/O, spread enough for references. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The shard a reference's movements land on (its credit, its reversal, its entries): hash(reference) mod count. */
export function shardOf(reference: string, count: number = BALANCE_SHARDS): number {
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('A shard count must be a positive integer');
  return fnv1a(reference) % count;
}

/** One shard's part of a covered debit. */
export type ShardPart = { shard: number; cents: number };

/**
 * How a debit that must be covered is taken from the shards as read (index = shard, value = cents):
 * - refused (undefined) when the SUM of the shards does not cover it;
 * - every shard read below zero (a reversal may leave one there) is filled back to zero (`fills`),
 *   so the debit and the fills together keep the sum exactly `sum − needed`;
 * - `needed` plus those fills is taken from the fullest shards first (ties: the lower index), each
 *   shard at most what it holds (`takes`): each update is conditional on `availableCents >= part`,
 *   so no shard a debit touches ends below zero.
 * A shard appears in at most one list; the takes sum to needed + the fills.
 */
export function coverPlan(shards: readonly number[], needed: number): { takes: ShardPart[]; fills: ShardPart[] } | undefined {
  if (!Number.isSafeInteger(needed) || needed <= 0) throw new Error('A covered debit must be a positive whole number of cents');
  if (shards.some((cents) => !Number.isSafeInteger(cents))) throw new Error('Shards hold whole cents');
  if (sumOf(shards) < needed) return undefined;
  const fills = shards.flatMap((cents, shard) => (cents < 0 ? [{ shard, cents: -cents }] : []));
  let left = needed + sumOf(fills.map((fill) => fill.cents));
  const fullest = shards
    .map((cents, shard) => ({ shard, cents }))
    .filter((s) => s.cents > 0)
    .sort((a, b) => b.cents - a.cents || a.shard - b.shard);
  const takes: ShardPart[] = [];
  for (const { shard, cents } of fullest) {
    if (left === 0) break;
    const part = Math.min(cents, left);
    takes.push({ shard, cents: part });
    left -= part;
  }
  // Unreachable: the positive shards hold sum + fills ≥ needed + fills.
  if (left !== 0) throw new Error('coverPlan: the shards do not cover the debit');
  return { takes, fills };
}
