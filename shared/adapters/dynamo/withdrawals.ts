import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seal, unseal } from '../../platform/crypto/personal-data';
import { brazilDayBounds } from '../../domain/brazil-dates';
import type { WithdrawalCreated, WithdrawalMoved } from '../../domain/changes';
import { KEY_TYPES, type KeyType, type Withdrawal } from '../../domain/withdrawal';
import type { WithdrawStatus } from '../../domain/withdrawal-transitions';
import { IdClashError } from '../../domain/errors';
import { sweepIndexAttributes } from './sweep-index';
import type { BalancePort, WithdrawalStore, WithdrawListQuery } from '../../ports/withdrawals';
import { WITHDRAW_PAGE_SIZE } from '../../ports/withdrawals';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { planWithdrawalHold } from './ledger-balance';
import { queryPage } from './paging';
import { MoveAlreadyMade } from './state-move';
import { FIRST_VERSION } from '../../domain/object-version';
import type { TxWrite } from './transact';
import type { ChangeCompilers } from './changes';
import { definedOnly } from '../../domain/defined';

/** The item type of withdraws (`type` attribute): the stream forwards its INSERTs to the payout queue. */
export const WITHDRAW_ITEM_TYPE = 'withdraw';

const pixkeyContext = (accountId: string, reference: string) => `withdraw-pixkey:${accountId}:${reference}`;
const documentContext = (accountId: string, reference: string) => `withdraw:${accountId}:${reference}`;

/**
 * The withdraw item (PENDING): listed through GSI1 by account, newest first; in the sweep's index (GSI2)
 * until the bank is asked. The Pix key (a CPF or CNPJ key is a taxpayer document) and the document are
 * stored sealed, never in clear.
 */
export function withdrawalItem(withdrawal: Withdrawal, personalDataKey: Buffer): Item {
  const { document, pixkey, ...rest } = withdrawal;
  const { accountId, reference, createdAt } = withdrawal;
  return {
    ...keys.withdraw(reference),
    GSI1PK: keys.withdrawListPartition(accountId),
    GSI1SK: `${createdAt}#${reference}`,
    ...sweepIndexAttributes(createdAt, keys.withdraw(reference).PK),
    type: WITHDRAW_ITEM_TYPE,
    ...rest,
    version: FIRST_VERSION,
    documentSealed: document ? seal(document, personalDataKey, documentContext(accountId, reference)) : undefined,
    pixkeySealed: seal(pixkey, personalDataKey, pixkeyContext(accountId, reference)),
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const keyType = (value: unknown): KeyType => ((KEY_TYPES as readonly unknown[]).includes(value) ? (value as KeyType) : 'EVP');

/** A withdraw item read back as the record (its Pix key unsealed; its document is never read back). */
export function withdrawalOf(item: Item, personalDataKey: Buffer): Withdrawal {
  const accountId = String(item.accountId);
  const reference = String(item.reference);
  // Items written before keys were sealed carry `pixkey` in clear.
  const pixkey = typeof item.pixkeySealed === 'string' ? unseal(item.pixkeySealed, personalDataKey, pixkeyContext(accountId, reference)) : String(item.pixkey);
  const optional = {
    heldCents: typeof item.heldCents === 'number' ? item.heldCents : undefined,
    description: text(item.description),
    client: text(item.client),
    email: text(item.email),
    bank: text(item.bank) || undefined,
    bankRequestedAt: text(item.bankRequestedAt),
    version: typeof item.version === 'number' ? item.version : undefined,
    paidAt: text(item.paidAt),
    canceledAt: text(item.canceledAt),
    endToEndId: text(item.endToEndId),
  };
  return {
    reference,
    accountId,
    status: item.status as WithdrawStatus,
    amountCents: Number(item.amountCents),
    feeCents: Number(item.feeCents),
    pixkey,
    keytype: keyType(item.keytype),
    createdAt: String(item.createdAt),
    ...definedOnly(optional),
  };
}

/** The put of a new withdrawal: its key reserves the reference (taken: IdClashError, the route draws again). */
export function withdrawalCreatedWrite(table: string, change: WithdrawalCreated, personalDataKey: Buffer): TxWrite {
  return {
    Put: { TableName: table, Item: withdrawalItem(change.withdrawal, personalDataKey), ConditionExpression: 'attribute_not_exists(PK)' },
    onConditionFailed: () => new IdClashError(),
  };
}

/** The status update of a bank outcome, conditional on the from-status: a duplicate or late outcome finds it made (MoveAlreadyMade). */
export function withdrawalMovedWrite(table: string, change: WithdrawalMoved): TxWrite {
  const set =
    change.to === 'PAID'
      ? { expression: 'SET #status = :to, paidAt = :at, endToEndId = :e2e, #version = :version', values: { ':e2e': change.endToEndId ?? '' } }
      : { expression: 'SET #status = :to, canceledAt = :at, #version = :version', values: {} };
  return {
    Update: {
      TableName: table,
      Key: keys.withdraw(change.reference),
      UpdateExpression: set.expression,
      ConditionExpression: '#status = :from',
      ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
      ExpressionAttributeValues: { ':to': change.to, ':from': change.from, ':at': change.at, ':version': change.version, ...set.values },
    },
    onConditionFailed: () => new MoveAlreadyMade(),
  };
}

/** The withdrawals of the table, through a personal-data key for their sealed fields. */
export function dynamoWithdrawals(db: Db, table: string, personalDataKey: () => Promise<Buffer>): WithdrawalStore {
  return {
    async get(reference) {
      const found = await db.send(new GetCommand({ TableName: table, Key: keys.withdraw(reference), ConsistentRead: true }));
      return found.Item ? withdrawalOf(found.Item, await personalDataKey()) : undefined;
    },
    async list(accountId: string, query: WithdrawListQuery) {
      const from = query.start ? new Date(brazilDayBounds(query.start).startMs).toISOString() : '0000';
      const to = query.end ? `${new Date(brazilDayBounds(query.end).endMs).toISOString()}#~` : '9999';
      const items = await queryPage(db, {
        query: {
          TableName: table,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': keys.withdrawListPartition(accountId), ':from': from, ':to': to },
          ScanIndexForward: false,
        },
        page: query.page,
        pageSize: WITHDRAW_PAGE_SIZE,
        keep: (item) => (query.status === undefined || item.status === query.status ? item : undefined),
      });
      const key = items.length > 0 ? await personalDataKey() : undefined;
      return key ? items.map((item) => withdrawalOf(item, key)) : [];
    },
    async markBankRequested(reference, at) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.withdraw(reference),
          UpdateExpression: 'SET bankRequestedAt = if_not_exists(bankRequestedAt, :now) REMOVE GSI2PK, GSI2SK',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':now': at },
        }),
      );
    },
  };
}

/** The balance port over the table: a withdrawal's hold planned on the shards as read. */
export function dynamoBalance(db: Db, table: string): BalancePort {
  return { planHold: (movement, amountCents, feeCents) => planWithdrawalHold(db, table, movement, amountCents, feeCents) };
}

/** The withdrawals room's changes. */
export const withdrawalCompilers: ChangeCompilers = {
  'withdrawal.created': async (context, change) => [withdrawalCreatedWrite(context.table, change, (await context.keys()).personalData)],
  'withdrawal.moved': (context, change) => [withdrawalMovedWrite(context.table, change)],
};
