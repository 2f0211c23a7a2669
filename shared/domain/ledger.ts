import { BALANCE_SHARDS, type ShardPart, shardOf } from './ledger-shards';
import type { ChargeMethod } from './payment-methods';

/**
 * THE balance rules: every movement of an account's balance is a ledger transfer, a typed fact built
 * here and nowhere else (values in, values out). The DynamoDB adapter compiles it into the caller's ONE
 * transaction (shared/adapters/dynamo/ledger.ts) with the state change behind it and its outbox event.
 *
 * An account's balance is two sums over its S shards: `available` (what may be withdrawn) and
 * `reserved` (held by withdrawals the bank has not answered yet, and by payments due back to their
 * payers). Every transfer writes immutable
 * entries whose signed parts add up to exactly what it changes on the shards, so the reconciliation
 * checks both sums against the entries.
 *
 * A withdrawal is a two-phase transfer (TigerBeetle's model): its reservation is PENDING (available −,
 * reserved +); the bank's answer POSTS it (reserved −: the money left) or VOIDS it (reserved −,
 * available +), exactly once, by its own entry: no entry is ever changed.
 *
 * | transfer            | phase   | entries (available, reserved)                       | shards                                  |
 * |---------------------|---------|-----------------------------------------------------|-----------------------------------------|
 * | payment credit      | single  | payment (+total, 0)                                  | reference's shard                       |
 * | refund-due hold     | pending | payment (0, +amount)                                 | reference's shard                       |
 * | payment reversal    | single  | refund (−total, 0)                                   | reference's shard (may go negative)     |
 * | withdrawal hold     | pending | withdrawal (−amount, +amount), withdrawal_fee (−fee, +fee) | takes from the fullest shards (each covered), reserved + on the reference's shard |
 * | withdrawal post     | posted  | withdrawal_posted (0, −(amount + fee))              | reference's shard                       |
 * | withdrawal void     | voided  | withdrawal_release (+(amount + fee), −(amount + fee)) | reference's shard                      |
 * | operator adjustment | single  | adjustment (±amount, 0)                              | reference's shard                       |
 */
export const LEDGER_ENTRY_TYPES = ['payment', 'refund', 'withdrawal', 'withdrawal_fee', 'withdrawal_posted', 'withdrawal_release', 'adjustment'] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export type TransferPhase = 'single' | 'pending' | 'posted' | 'voided';

/** One immutable entry of a transfer: signed integer cents on the available and on the reserved balance. */
export type LedgerEntryDraft = {
  type: LedgerEntryType;
  availableCents: number;
  reservedCents: number;
  description: string;
  /** A payment's (or its reversal's) charge method: the panel's overview sums payments per method. */
  method?: ChargeMethod;
};

/** A recorded entry (what the statement answers). */
export type LedgerEntry = LedgerEntryDraft & {
  id: string;
  /** What the movement belongs to: an invoice reference, a withdraw reference, or an operator note's id. */
  reference: string;
  /** ISO time of the movement. */
  createdAt: string;
};

/** What one transfer changes on one balance shard; `cover` = the shard must hold at least this much available first (a covered take). */
export type ShardChange = { shard: number; availableCents: number; reservedCents: number; cover?: number };

/** The change vocabulary's balance fact: a transfer, its shard changes and its entries (in the partition of `entryShard`). */
export type LedgerTransfer = {
  kind: 'ledger.transfer';
  phase: TransferPhase;
  accountId: string;
  reference: string;
  at: string;
  entryShard: number;
  shards: ShardChange[];
  entries: LedgerEntryDraft[];
  /** What a missing shard means: by default the shard's condition failing is a conflict; for the operator, an unknown account. */
  ifShardMissing?: 'account_not_found';
};

export type Movement = {
  accountId: string;
  reference: string;
  description: string;
  at: string;
  /** The account's shard count when the caller knows it (else the default, which every account has at least). */
  shards?: number;
};

/** The shard a movement's reference lands on. */
export function movementShard(movement: Pick<Movement, 'reference' | 'shards'>): number {
  return shardOf(movement.reference, movement.shards ?? BALANCE_SHARDS);
}

function whole(cents: number, what: string): number {
  if (!Number.isSafeInteger(cents)) throw new Error(`${what} must be whole cents`);
  return cents;
}

function positive(cents: number, what: string): number {
  if (whole(cents, what) <= 0) throw new Error(`${what} must be a positive whole number of cents`);
  return cents;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Builds a transfer; its entries must add up to exactly what its shards change (both sums), or nothing is built. */
function transfer(movement: Movement, phase: TransferPhase, shards: ShardChange[], drafts: LedgerEntryDraft[]): LedgerTransfer {
  const entries = drafts.filter((entry) => entry.availableCents !== 0 || entry.reservedCents !== 0);
  for (const entry of entries) {
    whole(entry.availableCents, 'An entry');
    whole(entry.reservedCents, 'An entry');
  }
  if (sum(shards.map((s) => s.availableCents)) !== sum(entries.map((e) => e.availableCents)))
    throw new Error('A transfer must change the available balance by its entries');
  if (sum(shards.map((s) => s.reservedCents)) !== sum(entries.map((e) => e.reservedCents)))
    throw new Error('A transfer must change the reserved balance by its entries');
  if (new Set(shards.map((s) => s.shard)).size !== shards.length) throw new Error('A transfer changes each shard once');
  return {
    kind: 'ledger.transfer',
    phase,
    accountId: movement.accountId,
    reference: movement.reference,
    at: movement.at,
    entryShard: movementShard(movement),
    shards,
    entries,
  };
}

/** A single-phase movement of `availableCents` on the reference's shard. */
function single(movement: Movement, type: LedgerEntryType, availableCents: number, method?: ChargeMethod): LedgerTransfer {
  const entry: LedgerEntryDraft = { type, availableCents, reservedCents: 0, description: movement.description, ...(method ? { method } : {}) };
  return transfer(movement, 'single', [{ shard: movementShard(movement), availableCents, reservedCents: 0 }], [entry]);
}

/** A charge paid (card approved, Pix or boleto confirmed): +total, its entry naming the charge's method. */
export function paymentCredit(movement: Movement, totalCents: number, method: ChargeMethod): LedgerTransfer {
  return single(movement, 'payment', positive(totalCents, 'A payment'), method);
}

/**
 * A payment that is not the merchant's to spend (issue 43): a BolePix paid again on its other rail. The
 * money arrived and is recorded, but held on the reserved balance until it goes back to the payer
 * (a refund posts it out), so a withdrawal can never spend it first.
 */
export function refundDueHold(movement: Movement, amountCents: number, method: ChargeMethod): LedgerTransfer {
  const cents = positive(amountCents, 'A held payment');
  return transfer(
    movement,
    'pending',
    [{ shard: movementShard(movement), availableCents: 0, reservedCents: cents }],
    [{ type: 'payment', availableCents: 0, reservedCents: cents, description: movement.description, method }],
  );
}

/** A paid charge refunded, or canceled after payment: −total on the payment's shard (never refused: the shard may go below zero). */
export function paymentReversal(movement: Movement, totalCents: number, method?: ChargeMethod): LedgerTransfer {
  return single(movement, 'refund', -positive(totalCents, 'A reversal'), method);
}

/** An operator's adjustment (the merchant panel's stand-in): ±amount; an account without balance shards is an unknown account. */
export function adjustment(movement: Movement, amountCents: number): LedgerTransfer {
  if (whole(amountCents, 'An adjustment') === 0) throw new Error('An adjustment must be a non-zero whole number of cents');
  return { ...single(movement, 'adjustment', amountCents), ifShardMissing: 'account_not_found' };
}

function withdrawalNeed(amountCents: number, feeCents: number): number {
  positive(amountCents, 'A withdrawal');
  if (whole(feeCents, 'A fee') < 0) throw new Error('A fee must be zero or a positive whole number of cents');
  return amountCents + feeCents;
}

/**
 * A withdrawal's reservation, the PENDING phase, for a cover plan (ledger-shards.ts coverPlan): each shard
 * taken from is conditional on holding its part (a shard that moved fails: nothing written, the caller
 * plans again), each negative shard is filled back to zero, and amount + fee is added to the reserved
 * balance on the reference's shard; two entries (withdrawal, fee) move both sums.
 */
export function withdrawalHold(movement: Movement, amountCents: number, feeCents: number, plan: { takes: ShardPart[]; fills: ShardPart[] }): LedgerTransfer {
  const needed = withdrawalNeed(amountCents, feeCents);
  if (sum(plan.takes.map((p) => p.cents)) - sum(plan.fills.map((p) => p.cents)) !== needed)
    throw new Error('A reservation plan must take exactly amount + fee');
  const home = movementShard(movement);
  const shards: ShardChange[] = [
    ...plan.takes.map((part) => ({ shard: part.shard, availableCents: -part.cents, reservedCents: 0, cover: part.cents })),
    ...plan.fills.map((part) => ({ shard: part.shard, availableCents: part.cents, reservedCents: 0 })),
  ];
  const existing = shards.find((change) => change.shard === home);
  if (existing) existing.reservedCents = needed;
  else shards.push({ shard: home, availableCents: 0, reservedCents: needed });
  return transfer(movement, 'pending', shards, [
    { type: 'withdrawal', availableCents: -amountCents, reservedCents: amountCents, description: movement.description },
    { type: 'withdrawal_fee', availableCents: -feeCents, reservedCents: feeCents, description: `Fee of ${movement.reference}` },
  ]);
}

/** The bank paid a held withdrawal: POSTED, the reserved amount + fee leaves the account (the available balance is untouched). */
export function withdrawalPost(movement: Movement, amountCents: number, feeCents: number): LedgerTransfer {
  const needed = withdrawalNeed(amountCents, feeCents);
  return transfer(
    movement,
    'posted',
    [{ shard: movementShard(movement), availableCents: 0, reservedCents: -needed }],
    [{ type: 'withdrawal_posted', availableCents: 0, reservedCents: -needed, description: movement.description }],
  );
}

/**
 * The bank refused a withdrawal: VOIDED, amount + fee back to the available balance as one entry. A
 * withdrawal reserved before reservations were held (`held` false: its amount left the available
 * balance and was never added to the reserved one) only gets its available part back.
 */
export function withdrawalVoid(movement: Movement, amountCents: number, feeCents: number, held = true): LedgerTransfer {
  const needed = withdrawalNeed(amountCents, feeCents);
  const reservedCents = held ? -needed : 0;
  return transfer(
    movement,
    'voided',
    [{ shard: movementShard(movement), availableCents: needed, reservedCents }],
    [{ type: 'withdrawal_release', availableCents: needed, reservedCents, description: movement.description }],
  );
}
