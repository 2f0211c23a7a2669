import { BalanceMovedError, InsufficientBalanceError } from '../errors';
import type { RetryBudget } from '../adapters/dynamo/contention';
import type { Db } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import type { TxWrite } from '../adapters/dynamo/transact';
import { readBalance, snapshotShards } from './balance';
import { type LedgerEntry, type LedgerEntryType, ledgerEntryItem, newTransactionId } from './entries';
import { BALANCE_SHARDS, coverPlan, type ShardPart, shardOf } from './shards';

/**
 * THE balance module: every movement of an account's balance goes through these functions, which return
 * the writes for the caller's ONE transaction (with the state change that causes the movement and its
 * outbox event): the change of the balance shard(s) and an immutable ledger entry per movement (a
 * conditional put, never updated). No other code writes a balance shard (a test checks it).
 *
 * The balance is the sum of S shards (shared/ledger/shards.ts). A movement keyed by a reference (a
 * credit, a reversal, a release, an adjustment) changes shard hash(reference) mod S, and its entries
 * live in that shard's ledger partition: one confirmation writes one shard's keys. A withdrawal's
 * reservation reads the shards and takes from the fullest (one conditional update per shard touched).
 *
 * | movement            | entries (signed)                          | shard condition                               |
 * |---------------------|-------------------------------------------|-----------------------------------------------|
 * | payment credit      | payment +total                            | the shard exists                              |
 * | payment reversal    | refund −total (refund, paid then canceled) | exists (may go negative)                      |
 * | withdrawal reserve  | withdrawal −amount, withdrawal_fee −fee    | each shard taken from ≥ its part; sum ≥ total |
 * | withdrawal release  | withdrawal_release +(amount + fee)         | exists                                        |
 * | operator adjustment | adjustment ±amount                         | exists                                        |
 */
export type Movement = {
  accountId: string;
  reference: string;
  description: string;
  at: string;
  /** The account's shard count when the caller knows it (else the default, which every account has at least). */
  shards?: number;
};

type EntryDraft = { type: LedgerEntryType; amountCents: number; description: string };

function entryWrites(table: string, movement: Movement, shard: number, drafts: readonly EntryDraft[]): TxWrite[] {
  return drafts
    .filter((draft) => draft.amountCents !== 0)
    .map((draft) => {
      const entry: LedgerEntry = {
        id: newTransactionId(),
        type: draft.type,
        amountCents: draft.amountCents,
        reference: movement.reference,
        description: draft.description,
        createdAt: movement.at,
      };
      return { Put: { TableName: table, Item: ledgerEntryItem(movement.accountId, shard, entry), ConditionExpression: 'attribute_not_exists(PK)' } };
    });
}

/** The shard a movement's reference lands on. */
export function movementShard(movement: Pick<Movement, 'reference' | 'shards'>): number {
  return shardOf(movement.reference, movement.shards ?? BALANCE_SHARDS);
}

/** An unconditional change of `delta` cents on the reference's shard (it must exist), with its entries in that shard's partition. */
function shardMovementWrites(table: string, movement: Movement, drafts: readonly EntryDraft[], onMissing?: () => Error): TxWrite[] {
  const delta = drafts.reduce((sum, entry) => sum + entry.amountCents, 0);
  if (!Number.isSafeInteger(delta)) throw new Error('A movement must be whole cents');
  const shard = movementShard(movement);
  return [
    {
      Update: {
        TableName: table,
        Key: keys.balanceShard(movement.accountId, shard),
        UpdateExpression: 'ADD availableCents :delta',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':delta': delta },
      },
      ...(onMissing ? { onConditionFailed: onMissing } : {}),
    },
    ...entryWrites(table, movement, shard, drafts),
  ];
}

function positive(cents: number, what: string): number {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new Error(`${what} must be a positive whole number of cents`);
  return cents;
}

/** A charge paid (card approved, Pix or boleto confirmed): +total. */
export function paymentCredit(table: string, movement: Movement, totalCents: number): TxWrite[] {
  return shardMovementWrites(table, movement, [{ type: 'payment', amountCents: positive(totalCents, 'A payment'), description: movement.description }]);
}

/** A paid charge refunded, or canceled after payment: −total on the payment's shard (never refused: the shard may go below zero). */
export function paymentReversal(table: string, movement: Movement, totalCents: number): TxWrite[] {
  return shardMovementWrites(table, movement, [{ type: 'refund', amountCents: -positive(totalCents, 'A reversal'), description: movement.description }]);
}

function withdrawalDrafts(movement: Movement, amountCents: number, feeCents: number): EntryDraft[] {
  if (!Number.isSafeInteger(feeCents) || feeCents < 0) throw new Error('A fee must be zero or a positive whole number of cents');
  return [
    { type: 'withdrawal', amountCents: -positive(amountCents, 'A withdrawal'), description: movement.description },
    { type: 'withdrawal_fee', amountCents: -feeCents, description: `Fee of ${movement.reference}` },
  ];
}

/**
 * The writes of a withdrawal's reservation for a cover plan (shards.ts coverPlan): one conditional
 * update per shard taken from (`availableCents >= :part`: a shard that moved fails it, BalanceMovedError,
 * nothing written), one update per negative shard filled back, and the two entries (withdrawal, fee)
 * in the partition of the reference's shard.
 */
export function reservationPlanWrites(
  table: string,
  movement: Movement,
  amountCents: number,
  feeCents: number,
  plan: { takes: ShardPart[]; fills: ShardPart[] },
): TxWrite[] {
  const drafts = withdrawalDrafts(movement, amountCents, feeCents);
  const needed = amountCents + feeCents;
  const taken = plan.takes.reduce((sum, part) => sum + part.cents, 0);
  const filled = plan.fills.reduce((sum, part) => sum + part.cents, 0);
  if (taken - filled !== needed) throw new Error('A reservation plan must take exactly amount + fee');
  const takes: TxWrite[] = plan.takes.map((part) => ({
    Update: {
      TableName: table,
      Key: keys.balanceShard(movement.accountId, part.shard),
      UpdateExpression: 'ADD availableCents :debit',
      ConditionExpression: 'availableCents >= :part',
      ExpressionAttributeValues: { ':debit': -part.cents, ':part': part.cents },
    },
    onConditionFailed: () => new BalanceMovedError(),
  }));
  const fills: TxWrite[] = plan.fills.map((part) => ({
    Update: {
      TableName: table,
      Key: keys.balanceShard(movement.accountId, part.shard),
      UpdateExpression: 'ADD availableCents :fill',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':fill': part.cents },
    },
  }));
  return [...takes, ...fills, ...entryWrites(table, movement, movementShard(movement), drafts)];
}

/**
 * A Pix withdrawal's reservation: −amount and −fee as two entries, only if the available balance (the
 * sum of the shards) covers both. Reads the shards (one consistent BatchGetItem) and plans the takes;
 * a refusal rests on a snapshot of the shards (TransactGetItems), never on reads made item by item
 * while other movements land. Throws InsufficientBalanceError when the sum does not cover it; the
 * commit throws BalanceMovedError when a shard moved meanwhile (the caller plans again).
 */
export async function withdrawalReservation(
  db: Db,
  table: string,
  movement: Movement,
  amountCents: number,
  feeCents: number,
  budget?: RetryBudget,
): Promise<TxWrite[]> {
  withdrawalDrafts(movement, amountCents, feeCents);
  const needed = amountCents + feeCents;
  const read = await readBalance(db, table, movement.accountId);
  const plan = coverPlan(read.shards, needed) ?? coverPlan(await snapshotShards(db, table, movement.accountId, read.count, budget), needed);
  if (!plan) throw new InsufficientBalanceError();
  return reservationPlanWrites(table, movement, amountCents, feeCents, plan);
}

/** A refused withdrawal: its amount and fee back to the balance, as one entry (on the withdraw reference's shard). */
export function withdrawalRelease(table: string, movement: Movement, amountCents: number, feeCents: number): TxWrite[] {
  return shardMovementWrites(table, movement, [
    { type: 'withdrawal_release', amountCents: positive(amountCents + feeCents, 'A release'), description: movement.description },
  ]);
}

/** An operator's adjustment (the merchant panel's stand-in): ±amount; `onMissing` when the account has no balance shard. */
export function adjustment(table: string, movement: Movement, amountCents: number, onMissing?: () => Error): TxWrite[] {
  if (!Number.isSafeInteger(amountCents) || amountCents === 0) throw new Error('An adjustment must be a non-zero whole number of cents');
  return shardMovementWrites(table, movement, [{ type: 'adjustment', amountCents, description: movement.description }], onMissing);
}
