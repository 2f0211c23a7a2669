import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../../clock';
import { canonicalJson } from '../../idempotency/fingerprint';
import type { Runtime } from '../../runtime';
import { type Item, isConditionalCheckFailed } from './dynamo';
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

/** OPEN: asked, no answer recorded yet. UNKNOWN: the answer was lost, the invoice waits PENDING. RECORDED: the invoice is PAID. */
export type CardAttemptStatus = 'OPEN' | 'UNKNOWN' | 'RECORDED';

export type CardAttempt = {
  key: string;
  accountId: string;
  providerKey: string;
  reference: string;
  invoiceId: number;
  status: CardAttemptStatus;
  /** The provider it was asked of (the invoice's `provider`). */
  provider: string;
  /** When its answer was lost (UNKNOWN). */
  unknownAt?: string;
};

/** How long a recorded or abandoned attempt is kept: a retry of the same charge within it finds it. */
export const CARD_ATTEMPT_TTL_SECONDS = 24 * 60 * 60;

/** The settler's index partitions (GSI2) of UNKNOWN attempts. */
export const CARD_UNKNOWN_SHARDS = 4;
export const cardUnknownPartitions = (): string[] => Array.from({ length: CARD_UNKNOWN_SHARDS }, (_, shard) => `CARDUNK#${shard}`);

/**
 * The key an attempt is kept under: the caller's Idempotency-Key when given, else a keyed hash of what
 * makes the charge this charge (never the card number in clear). Without a key, the same card, amounts,
 * installments, invoice_no and item within CARD_ATTEMPT_TTL_SECONDS is the same charge (docs/decisions.md).
 */
export function cardAttemptKey(
  accountId: string,
  idempotencyKey: string | undefined,
  charge: { cardNumber: string; month: number; year: number; totalCents: number; installments: number; invoiceNo: string; itemName: string },
  secret: Buffer,
): string {
  const source =
    idempotencyKey !== undefined
      ? `key:${accountId}:${idempotencyKey}`
      : `charge:${accountId}:${canonicalJson({ ...charge, cardNumber: charge.cardNumber.replace(/\D/g, '') })}`;
  return createHmac('sha256', secret).update(`card-attempt:${source}`).digest('base64url').slice(0, 43);
}

/** One single-item write of an attempt: a throttle or a conflict with a running transaction is retried, then 503 (ContentionError). */
async function write(runtime: Runtime, command: PutCommand | UpdateCommand | DeleteCommand): Promise<void> {
  await retryTransient(async () => {
    if (command instanceof PutCommand) await runtime.db.send(command);
    else if (command instanceof UpdateCommand) await runtime.db.send(command);
    else await runtime.db.send(command);
  });
}

function attemptOf(item: Item | undefined): CardAttempt | undefined {
  if (!item) return undefined;
  return {
    key: String(item.attemptKey),
    accountId: String(item.accountId),
    providerKey: String(item.providerKey),
    reference: String(item.reference),
    invoiceId: Number(item.invoiceId),
    status: item.status as CardAttemptStatus,
    provider: String(item.provider),
    ...(typeof item.unknownAt === 'string' ? { unknownAt: item.unknownAt } : {}),
  };
}

export async function readCardAttempt(runtime: Runtime, key: string): Promise<CardAttempt | undefined> {
  const out = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.cardAttempt(key), ConsistentRead: true }));
  return attemptOf(out.Item);
}

/**
 * The attempt of this charge: the one recorded (a retry), or a new OPEN one with a fresh provider key
 * and the invoice ids drawn for it (a conditional put: two first attempts at once share the winner's).
 */
export async function openCardAttempt(
  runtime: Runtime,
  key: string,
  fresh: { accountId: string; reference: string; invoiceId: number; provider: string },
  now: Date,
): Promise<CardAttempt> {
  const existing = await readCardAttempt(runtime, key);
  if (existing) return existing;
  const attempt: CardAttempt = { key, ...fresh, providerKey: randomBytes(24).toString('hex'), status: 'OPEN' };
  try {
    await write(
      runtime,
      new PutCommand({
        TableName: runtime.config.tableName,
        Item: { ...keys.cardAttempt(key), type: 'cardAttempt', attemptKey: key, ...attempt, createdAt: now.toISOString(), ttl: unixSeconds(now) + CARD_ATTEMPT_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return attempt;
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    const winner = await readCardAttempt(runtime, key);
    if (!winner) throw err;
    return winner;
  }
}

/** The attempt's move to RECORDED, in the transaction that records its PAID invoice (conditional: recorded once). */
export function attemptRecordedWrite(table: string, attempt: CardAttempt, onConflict: () => Error): TxWrite {
  return {
    Update: {
      TableName: table,
      Key: keys.cardAttempt(attempt.key),
      UpdateExpression: 'SET #status = :recorded REMOVE GSI2PK, GSI2SK',
      ConditionExpression: 'providerKey = :key AND #status IN (:open, :unknown)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':recorded': 'RECORDED', ':key': attempt.providerKey, ':open': 'OPEN', ':unknown': 'UNKNOWN' },
    },
    onConditionFailed: onConflict,
  };
}

/** The attempt's move to UNKNOWN, into the settler's index, with its PENDING invoice written beside it. */
export function attemptUnknownWrite(table: string, attempt: CardAttempt, now: Date, onConflict: () => Error): TxWrite {
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
export async function closeUnknownAttempt(runtime: Runtime, attempt: CardAttempt, status: 'RECORDED' | 'NOT_CHARGED', now: Date): Promise<void> {
  try {
    if (status === 'NOT_CHARGED') {
      // Not charged: a retry of the same charge authorizes anew, under a new provider key.
      await write(
        runtime,
        new DeleteCommand({
          TableName: runtime.config.tableName,
          Key: keys.cardAttempt(attempt.key),
          ConditionExpression: 'providerKey = :key',
          ExpressionAttributeValues: { ':key': attempt.providerKey },
        }),
      );
      return;
    }
    await write(
      runtime,
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: keys.cardAttempt(attempt.key),
        UpdateExpression: 'SET #status = :recorded, #ttl = :ttl REMOVE GSI2PK, GSI2SK',
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
export async function dropOpenAttempt(runtime: Runtime, attempt: CardAttempt): Promise<void> {
  try {
    await write(
      runtime,
      new DeleteCommand({
        TableName: runtime.config.tableName,
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
export async function unknownCardAttempts(runtime: Runtime, partition: string): Promise<CardAttempt[]> {
  const out = await runtime.db.send(
    new QueryCommand({ TableName: runtime.config.tableName, IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': partition } }),
  );
  return (out.Items ?? []).map((item) => attemptOf(item)).filter((attempt): attempt is CardAttempt => attempt?.status === 'UNKNOWN');
}
