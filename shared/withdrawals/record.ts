import { seal, unseal } from '../crypto/personal-data';
import { randomString } from '../ids';
import { formatCents } from '../domain/money';
import type { KeyType } from '../schemas/withdraw';
import type { RetryBudget } from '../adapters/dynamo/contention';
import type { Db, Item } from '../adapters/dynamo/dynamo';
import { sweepIndexAttributes } from '../events/sweep-index';
import { keys } from '../adapters/dynamo/keys';
import { planWithdrawalHold } from '../adapters/dynamo/ledger-balance';
import { transferWrites } from '../adapters/dynamo/ledger';
import type { TxWrite } from '../adapters/dynamo/transact';
import { IdClashError } from '../errors';

export const WITHDRAW_ITEM_TYPE = 'withdraw';

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `WD-` and twelve characters: the withdraw's reference, also its txid in GET /api/pixout/withdraw/{txid}. */
export function newWithdrawReference(): string {
  return `WD-${randomString(12, REFERENCE_ALPHABET)}`;
}

export const WITHDRAW_REFERENCE_SHAPE = /^WD-[A-Z0-9]{12}$/;

export type NewWithdraw = {
  accountId: string;
  reference: string;
  amountCents: number;
  feeCents: number;
  pixkey: string;
  keytype: KeyType;
  description?: string;
  client?: string;
  document?: string;
  email?: string;
  createdAt: string;
  /** The registry name of the bank that pays it (BANK_PROVIDER when it was created); the payout worker resolves it by this name. */
  bank?: string;
};

const pixkeyContext = (accountId: string, reference: string) => `withdraw-pixkey:${accountId}:${reference}`;

/**
 * The withdraw item (PENDING): listed through GSI1 by account, newest first. `heldCents` (amount + fee)
 * says its reservation is a pending transfer held in the reserved balance (every withdraw since issue
 * 32): the bank's answer posts or voids it. A withdraw without it was reserved before, by a plain debit.
 */
export function withdrawItem(withdraw: NewWithdraw, personalDataKey: Buffer): Item {
  const { document, pixkey, ...rest } = withdraw;
  return {
    ...keys.withdraw(withdraw.reference),
    GSI1PK: keys.withdrawListPartition(withdraw.accountId),
    GSI1SK: `${withdraw.createdAt}#${withdraw.reference}`,
    ...sweepIndexAttributes(withdraw.createdAt, keys.withdraw(withdraw.reference).PK),
    type: WITHDRAW_ITEM_TYPE,
    status: 'PENDING',
    ...rest,
    heldCents: withdraw.amountCents + withdraw.feeCents,
    documentSealed: document ? seal(document, personalDataKey, `withdraw:${withdraw.accountId}:${withdraw.reference}`) : undefined,
    // A CPF or CNPJ Pix key is a taxpayer document: every key is stored sealed.
    pixkeySealed: seal(pixkey, personalDataKey, pixkeyContext(withdraw.accountId, withdraw.reference)),
  };
}

/** The bank a withdraw item records; items written before withdraws recorded one go to the configured bank. */
export function withdrawBankName(item: Item, configured: string): string {
  return typeof item.bank === 'string' && item.bank.length > 0 ? item.bank : configured;
}

/** The Pix key of a withdraw item, unsealed. */
export function withdrawPixkey(item: Item, personalDataKey: Buffer): string {
  // Items written before keys were sealed carry `pixkey` in clear.
  if (typeof item.pixkeySealed !== 'string') return String(item.pixkey);
  return unseal(String(item.pixkeySealed), personalDataKey, pixkeyContext(String(item.accountId), String(item.reference)));
}

/**
 * The reservation: ONE transaction that holds amount + fee (the pending phase of the withdrawal's
 * transfer: available −, reserved +) only if the available balance covers it (else 400 and nothing
 * changes), with its two ledger entries (withdrawal, fee), and puts the PENDING withdraw (its key
 * reserves the reference). The pipeline adds the completed
 * idempotency record to the same transaction; a shard that moved before the commit makes the pipeline
 * run the route again (BalanceMovedError), which reads the shards again.
 */
export async function reservationWrites(db: Db, table: string, item: Item, budget?: RetryBudget): Promise<TxWrite[]> {
  const reference = String(item.reference);
  return [
    ...transferWrites(
      table,
      await planWithdrawalHold(
        db,
        table,
        { accountId: String(item.accountId), reference, description: `Pix withdrawal ${reference}`, at: String(item.createdAt) },
        Number(item.amountCents),
        Number(item.feeCents),
        budget,
      ),
    ),
    { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }, onConditionFailed: () => new IdClashError() },
  ];
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The Withdraw object (spec 2.5), with the deprecated names carrying the same values (spec 9). */
export function withdrawView(item: Item, personalDataKey: Buffer) {
  const amount = formatCents(Number(item.amountCents));
  const endToEndId = str(item.endToEndId);
  return {
    reference: String(item.reference),
    amount,
    fee: formatCents(Number(item.feeCents)),
    netAmount: amount,
    endToEndId,
    status: item.status as 'PENDING' | 'PAID' | 'CANCELED',
    pixkey: withdrawPixkey(item, personalDataKey),
    keytype: item.keytype as KeyType,
    description: str(item.description),
    created_at: String(item.createdAt),
    paid_at: str(item.paidAt),
    canceled_at: str(item.canceledAt),
    loquidAmount: amount,
    entoend: endToEndId,
  };
}

/** The `withdraw` object of pixout events (spec 6.1). */
export function withdrawEventData(item: Item, status: string): Record<string, unknown> {
  return { withdraw: { reference: item.reference, amount: formatCents(Number(item.amountCents)), fee: formatCents(Number(item.feeCents)), status } };
}
