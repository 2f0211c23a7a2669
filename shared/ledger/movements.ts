import { InsufficientBalanceError } from '../errors';
import { keys } from '../storage/keys';
import type { TxWrite } from '../storage/transact';
import { type LedgerEntry, type LedgerEntryType, ledgerEntryItem, newTransactionId } from './entries';

/**
 * THE balance module: every movement of an account's balance goes through these functions, which return
 * the writes for the caller's ONE transaction (with the state change that causes the movement and its
 * outbox event): the balance item's change and an immutable ledger entry per movement (a conditional
 * put, never updated). No other code writes the balance item (a test checks it).
 *
 * | movement            | entries (signed)                          | balance condition        |
 * |---------------------|-------------------------------------------|--------------------------|
 * | payment credit      | payment +total                            | the balance item exists  |
 * | payment reversal    | refund −total (refund, paid then canceled) | exists (may go negative) |
 * | withdrawal reserve  | withdrawal −amount, withdrawal_fee −fee    | available ≥ amount + fee |
 * | withdrawal release  | withdrawal_release +(amount + fee)         | exists                   |
 * | operator adjustment | adjustment ±amount                         | exists                   |
 */
export type Movement = { accountId: string; reference: string; description: string; at: string };

type EntryDraft = { type: LedgerEntryType; amountCents: number; description: string };

function entryWrite(table: string, accountId: string, entry: LedgerEntry): TxWrite {
  return { Put: { TableName: table, Item: ledgerEntryItem(accountId, entry), ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** A balance change of `delta` cents with its entries; `mustCover` refuses a debit the available balance does not cover. */
function movementWrites(
  table: string,
  movement: Movement,
  drafts: readonly EntryDraft[],
  options: { mustCover?: boolean; onMissing?: () => Error } = {},
): TxWrite[] {
  const entries = drafts.filter((draft) => draft.amountCents !== 0);
  const delta = entries.reduce((sum, entry) => sum + entry.amountCents, 0);
  if (!Number.isSafeInteger(delta)) throw new Error('A movement must be whole cents');
  const balance: TxWrite = options.mustCover
    ? {
        Update: {
          TableName: table,
          Key: keys.balance(movement.accountId),
          UpdateExpression: 'SET availableCents = availableCents - :debit',
          ConditionExpression: 'availableCents >= :debit',
          ExpressionAttributeValues: { ':debit': -delta },
        },
        onConditionFailed: () => new InsufficientBalanceError(),
      }
    : {
        Update: {
          TableName: table,
          Key: keys.balance(movement.accountId),
          UpdateExpression: 'ADD availableCents :delta',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':delta': delta },
        },
        ...(options.onMissing ? { onConditionFailed: options.onMissing } : {}),
      };
  return [
    balance,
    ...entries.map((draft) =>
      entryWrite(table, movement.accountId, {
        id: newTransactionId(),
        type: draft.type,
        amountCents: draft.amountCents,
        reference: movement.reference,
        description: draft.description,
        createdAt: movement.at,
      }),
    ),
  ];
}

function positive(cents: number, what: string): number {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new Error(`${what} must be a positive whole number of cents`);
  return cents;
}

/** A charge paid (card approved, Pix or boleto confirmed): +total. */
export function paymentCredit(table: string, movement: Movement, totalCents: number): TxWrite[] {
  return movementWrites(table, movement, [{ type: 'payment', amountCents: positive(totalCents, 'A payment'), description: movement.description }]);
}

/** A paid charge refunded, or canceled after payment: −total (never refused: the balance may go below zero). */
export function paymentReversal(table: string, movement: Movement, totalCents: number): TxWrite[] {
  return movementWrites(table, movement, [{ type: 'refund', amountCents: -positive(totalCents, 'A reversal'), description: movement.description }]);
}

/** A Pix withdrawal's reservation: −amount and −fee as two entries, only if the available balance covers both (else InsufficientBalanceError). */
export function withdrawalReservation(table: string, movement: Movement, amountCents: number, feeCents: number): TxWrite[] {
  if (!Number.isSafeInteger(feeCents) || feeCents < 0) throw new Error('A fee must be zero or a positive whole number of cents');
  return movementWrites(
    table,
    movement,
    [
      { type: 'withdrawal', amountCents: -positive(amountCents, 'A withdrawal'), description: movement.description },
      { type: 'withdrawal_fee', amountCents: -feeCents, description: `Fee of ${movement.reference}` },
    ],
    { mustCover: true },
  );
}

/** A refused withdrawal: its amount and fee back to the balance, as one entry. */
export function withdrawalRelease(table: string, movement: Movement, amountCents: number, feeCents: number): TxWrite[] {
  return movementWrites(table, movement, [
    { type: 'withdrawal_release', amountCents: positive(amountCents + feeCents, 'A release'), description: movement.description },
  ]);
}

/** An operator's adjustment (the merchant panel's stand-in): ±amount; `onMissing` when the account has no balance item. */
export function adjustment(table: string, movement: Movement, amountCents: number, onMissing?: () => Error): TxWrite[] {
  if (!Number.isSafeInteger(amountCents) || amountCents === 0) throw new Error('An adjustment must be a non-zero whole number of cents');
  return movementWrites(table, movement, [{ type: 'adjustment', amountCents, description: movement.description }], onMissing ? { onMissing } : {});
}
