import { createHash, randomBytes, randomInt } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../../ports/clock';
import type { CardAttemptRecorded, CardAttemptUnknown } from '../../domain/changes';
import type { CardAttempt } from '../../domain/card-attempt';
import type { NewInvoice } from '../../domain/invoice';
import { CardRecordedMeanwhileError } from '../../domain/errors';
import type { CardAttemptStore } from '../../ports/cards';
import type { ChangeCompilers } from './changes';
import { type Db, type Item, isConditionalCheckFailed } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';
import { retryTransient } from './contention';

/**
 * The attempts of POST /api/creditcard/create (issue 25): a provider that does not answer may have
 * authorized the card, so an attempt is recorded before the provider is asked, under a key of the
 * charge itself: the caller's Idempotency-Key, or without one the charge's keyed fingerprint (account,
 * card, amounts, installments, invoice_no, item). Its provider idempotency key is drawn once: a retry of
 * the same charge (with or without a key) asks the provider again under it, so the provider answers
 * the first authorization instead of making a second. An attempt whose answer was lost and not
 * verified is UNKNOWN: its invoice is recorded PENDING, and a retry or the settler (the checkout upkeep,
 * every 5 minutes) asks the provider by the key and moves the invoice to PAID (credited once,
 * invoice.paid) or CANCELED (not charged, invoice.canceled). A recorded charge answers its retries.
 */

export type { CardAttempt, CardAttemptStatus } from '../../domain/card-attempt';

/** How long a recorded or abandoned attempt is kept: a retry of the same charge within it finds it. */
export const CARD_ATTEMPT_TTL_SECONDS = 24 * 60 * 60;

/** The settler's index partitions (GSI2) of UNKNOWN attempts. */
export const CARD_UNKNOWN_SHARDS = 4;
export const cardUnknownPartitions = (): string[] => Array.from({ length: CARD_UNKNOWN_SHARDS }, (_, shard) => `CARDUNK#${shard}`);

/** One single-item write of an attempt: a throttle or a conflict with a running transaction is retried, then 503 (ContentionError). */
async function write(db: Db, command: PutCommand | UpdateCommand | DeleteCommand): Promise<void> {
  await retryTransient(async () => {
    if (command instanceof PutCommand) await db.send(command);
    else if (command instanceof UpdateCommand) await db.send(command);
    else await db.send(command);
  });
}

/** The stored PENDING invoice of an attempt (JSON: written by this adapter only). */
function pendingOf(item: Item): NewInvoice | undefined {
  return typeof item.pendingInvoice === 'string' ? (JSON.parse(item.pendingInvoice) as NewInvoice) : undefined;
}

function attemptOf(item: Item | undefined): CardAttempt | undefined {
  if (!item) return undefined;
  const pending = pendingOf(item);
  return {
    key: String(item.attemptKey),
    accountId: String(item.accountId),
    providerKey: String(item.providerKey),
    reference: String(item.reference),
    invoiceId: Number(item.invoiceId),
    status: item.status as CardAttempt['status'],
    provider: String(item.provider),
    ...(typeof item.unknownAt === 'string' ? { unknownAt: item.unknownAt } : {}),
    ...(typeof item.createdAt === 'string' ? { openedAt: item.createdAt } : {}),
    ...(pending ? { pending } : {}),
  };
}

async function readCardAttempt(db: Db, table: string, key: string): Promise<CardAttempt | undefined> {
  const out = await db.send(new GetCommand({ TableName: table, Key: keys.cardAttempt(key), ConsistentRead: true }));
  return attemptOf(out.Item);
}

/**
 * A new OPEN attempt of this charge, with a fresh provider key and the invoice ids drawn for it, for a
 * caller that read none (a conditional put: when another request opened it meanwhile, two first
 * attempts at once, that one is read and returned; issue 26: no read of its own before the put). It is
 * in the settler's index from the start (issue 44): should its invocation end without recording it
 * (killed mid-call), the settler finds it once that invocation is surely over and asks the provider.
 */
async function openCardAttempt(
  db: Db,
  table: string,
  key: string,
  fresh: { accountId: string; reference: string; invoiceId: number; provider: string; pending: NewInvoice },
  now: Date,
): Promise<CardAttempt> {
  const { pending, ...ids } = fresh;
  const attempt: CardAttempt = { key, ...ids, providerKey: randomBytes(24).toString('hex'), status: 'OPEN', openedAt: now.toISOString(), pending };
  try {
    await write(
      db,
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.cardAttempt(key),
          type: 'cardAttempt',
          attemptKey: key,
          ...ids,
          providerKey: attempt.providerKey,
          status: 'OPEN',
          pendingInvoice: JSON.stringify(pending),
          GSI2PK: `CARDUNK#${randomInt(CARD_UNKNOWN_SHARDS)}`,
          GSI2SK: `${now.toISOString()}#${fresh.reference}`,
          createdAt: now.toISOString(),
          ttl: unixSeconds(now) + CARD_ATTEMPT_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return attempt;
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    const winner = await readCardAttempt(db, table, key);
    if (!winner) throw err;
    return winner;
  }
}

/** The attempt's move to RECORDED, in the transaction that records its PAID invoice (conditional: recorded once). */
export function attemptRecordedWrite(table: string, attempt: CardAttempt, onConflict: () => Error = () => new CardRecordedMeanwhileError()): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.cardAttempt(attempt.key),
      UpdateExpression: 'SET #status = :recorded REMOVE GSI2PK, GSI2SK, pendingInvoice',
      ConditionExpression: 'providerKey = :key AND #status IN (:open, :unknown)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':recorded': 'RECORDED', ':key': attempt.providerKey, ':open': 'OPEN', ':unknown': 'UNKNOWN' },
    },
    onConditionFailed: onConflict,
  };
}

/** The attempt's move to UNKNOWN, into the settler's index, with its PENDING invoice written beside it. */
export function attemptUnknownWrite(table: string, attempt: CardAttempt, now: Date, onConflict: () => Error = () => new CardRecordedMeanwhileError()): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.cardAttempt(attempt.key),
      UpdateExpression: 'SET #status = :unknown, GSI2PK = :pk, GSI2SK = :sk, unknownAt = :at REMOVE #ttl',
      ConditionExpression: 'providerKey = :key AND #status = :open',
      ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':unknown': 'UNKNOWN',
        ':open': 'OPEN',
        ':key': attempt.providerKey,
        ':pk': `CARDUNK#${randomInt(CARD_UNKNOWN_SHARDS)}`,
        ':sk': `${now.toISOString()}#${attempt.reference}`,
        ':at': now.toISOString(),
      },
    },
    onConditionFailed: onConflict,
  };
}

/** An UNKNOWN attempt settled (its invoice moved): out of the index, kept for retries until its TTL. */
async function closeUnknownAttempt(db: Db, table: string, attempt: CardAttempt, status: 'RECORDED' | 'NOT_CHARGED', now: Date): Promise<void> {
  try {
    if (status === 'NOT_CHARGED') {
      // Not charged: a retry of the same charge authorizes anew, under a new provider key.
      await write(
        db,
        new DeleteCommand({
          TableName: table,
          Key: keys.cardAttempt(attempt.key),
          ConditionExpression: 'providerKey = :key',
          ExpressionAttributeValues: { ':key': attempt.providerKey },
        }),
      );
      return;
    }
    await write(
      db,
      new UpdateCommand({
        TableName: table,
        Key: keys.cardAttempt(attempt.key),
        UpdateExpression: 'SET #status = :recorded, #ttl = :ttl REMOVE GSI2PK, GSI2SK, pendingInvoice',
        ConditionExpression: 'providerKey = :key',
        ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':recorded': 'RECORDED', ':key': attempt.providerKey, ':ttl': unixSeconds(now) + CARD_ATTEMPT_TTL_SECONDS },
      }),
    );
  } catch (err) {
    // Another settler or a retry closed it first.
    if (!isConditionalCheckFailed(err)) throw err;
  }
}

/** An OPEN attempt the provider declined or verifiably never charged: gone, so a retry asks anew. */
async function dropOpenAttempt(db: Db, table: string, attempt: CardAttempt): Promise<void> {
  try {
    await write(
      db,
      new DeleteCommand({
        TableName: table,
        Key: keys.cardAttempt(attempt.key),
        ConditionExpression: 'providerKey = :key AND #status = :open',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':key': attempt.providerKey, ':open': 'OPEN' },
      }),
    );
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
  }
}

/** The UNKNOWN attempts of one index partition (the settler reads each partition). */
async function unknownCardAttempts(db: Db, table: string, partition: string): Promise<CardAttempt[]> {
  const out = await db.send(
    new QueryCommand({ TableName: table, IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': partition } }),
  );
  return (out.Items ?? []).map((item) => attemptOf(item)).filter((attempt): attempt is CardAttempt => attempt?.status === 'UNKNOWN');
}

/** The OPEN attempts of one index partition opened before `openedBefore` (its sort key starts with the opening instant). */
async function staleOpenCardAttempts(db: Db, table: string, partition: string, openedBefore: Date): Promise<CardAttempt[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: table,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :before',
      ExpressionAttributeValues: { ':pk': partition, ':before': openedBefore.toISOString() },
    }),
  );
  return (out.Items ?? []).map((item) => attemptOf(item)).filter((attempt): attempt is CardAttempt => attempt?.status === 'OPEN');
}

/** A new provider key for an OPEN attempt whose authorization was voided (it could not be recorded before). */
async function renewProviderKey(db: Db, table: string, attempt: CardAttempt, voidedTransaction: string): Promise<CardAttempt> {
  const providerKey = createHash('sha256')
    .update(`${attempt.providerKey}:after-void:${voidedTransaction}:${randomBytes(8).toString('hex')}`)
    .digest('hex');
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: keys.cardAttempt(attempt.key),
      UpdateExpression: 'SET providerKey = :new',
      ConditionExpression: 'providerKey = :old AND #status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':new': providerKey, ':old': attempt.providerKey, ':open': 'OPEN' },
    }),
  );
  return { ...attempt, providerKey };
}

/** The approved transaction recorded on the attempt's PENDING card invoice, first, so its invoice.paid carries it. */
async function recordTransaction(db: Db, table: string, reference: string, transaction: { transactionId: string; status: number }): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: keys.invoice(reference),
      UpdateExpression:
        'SET #card.transactionId = if_not_exists(#card.transactionId, :id), #card.transactionStatus = if_not_exists(#card.transactionStatus, :status)',
      ConditionExpression: 'attribute_exists(#card)',
      ExpressionAttributeNames: { '#card': 'card' },
      ExpressionAttributeValues: { ':id': transaction.transactionId, ':status': transaction.status },
    }),
  );
}

/** The card attempts over the table. */
export function dynamoCardAttempts(db: Db, table: string): CardAttemptStore {
  return {
    read: (key) => readCardAttempt(db, table, key),
    open: (key, fresh, now) => openCardAttempt(db, table, key, fresh, now),
    renewProviderKey: (attempt, voided) => renewProviderKey(db, table, attempt, voided),
    drop: (attempt) => dropOpenAttempt(db, table, attempt),
    closeUnknown: (attempt, status, now) => closeUnknownAttempt(db, table, attempt, status, now),
    recordTransaction: (reference, transaction) => recordTransaction(db, table, reference, transaction),
    unknownPartitions: cardUnknownPartitions(),
    unknownIn: (partition) => unknownCardAttempts(db, table, partition),
    staleOpenIn: (partition, openedBefore) => staleOpenCardAttempts(db, table, partition, openedBefore),
  };
}

/** The card attempts' changes: recorded with its PAID invoice, UNKNOWN with its PENDING one. */
export const cardAttemptCompilers: ChangeCompilers = {
  'card_attempt.recorded': (context, change: CardAttemptRecorded) => [attemptRecordedWrite(context.table, change.attempt)],
  'card_attempt.unknown': (context, change: CardAttemptUnknown) => [attemptUnknownWrite(context.table, change.attempt, new Date(change.at))],
};
