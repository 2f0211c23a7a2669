import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seal, unseal } from '../../platform/crypto/personal-data';
import type { MailKind, OutgoingMail } from '../../domain/panel/mail';
import type { MailOutbox, MailOutcome, MailOutcomes } from '../../ports/mail';
import { batchGetConsistent } from './batch-get';
import { sweepIndexAttributes } from './sweep-index';
import { cancellationReasons } from './contention';
import { type Db, isConditionalCheckFailed } from './dynamo';
import { keys } from './keys';
import { notSuppressedCheck } from './mail-suppressions';
import { stripped, type TxWrite } from './transact';

/** The item type of a queued message (`type` attribute): the stream forwards its INSERT to the mail queue. */
export const MAIL_ITEM_TYPE = 'mail';

/** A message is kept this long (sent or not): the operator's look at what was sent; its text is removed once sent. */
const MAIL_KEPT_SECONDS = 7 * 24 * 60 * 60;

type Sealed = { to: string; subject: string; text: string };

const OUTCOMES: readonly MailOutcome[] = ['sent', 'skipped', 'suppressed', 'rejected'];
/** A finished item's outcome (an item from before issue 44 with another word reads as sent). */
const outcomeOf = (status: unknown): MailOutcome => OUTCOMES.find((o) => o === status) ?? 'sent';

/** How the given messages ended (one consistent batch read of their status only); pending or gone ones are absent. */
export function dynamoMailOutcomes(db: Db, table: string): MailOutcomes {
  return async (mailIds) => {
    const unique = [...new Set(mailIds)];
    const items = await batchGetConsistent(db, table, unique.map(keys.mail), 'PK, SK, #status', { '#status': 'status' });
    const outcomes = new Map<string, MailOutcome>();
    unique.forEach((mailId, i) => {
      const status = items[i]?.status;
      if (typeof status === 'string' && status !== 'pending') outcomes.set(mailId, outcomeOf(status));
    });
    return outcomes;
  };
}

/**
 * A message queued in the transaction of what it tells: its recipient and text sealed (AES-256-GCM under
 * the mail key, bound to its id: they may hold a link that works once), in the sweep's index until the
 * stream forwards it (the sweep forwards it if the record is lost).
 */
export function mailWrite(table: string, mail: OutgoingMail, mailKey: Buffer): TxWrite {
  const key = keys.mail(mail.id);
  const body: Sealed = { to: mail.to, subject: mail.subject, text: mail.text };
  return {
    Put: {
      TableName: table,
      Item: {
        ...key,
        type: MAIL_ITEM_TYPE,
        mailId: mail.id,
        kind: mail.kind,
        status: 'pending',
        bodySealed: seal(JSON.stringify(body), mailKey, key.PK),
        createdAt: mail.createdAt,
        ttl: Math.floor(Date.parse(mail.createdAt) / 1000) + MAIL_KEPT_SECONDS,
        ...sweepIndexAttributes(mail.createdAt, key.PK),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The mail worker's view of the queued messages. */
export function dynamoMailOutbox(db: Db, table: string, mailKey: () => Promise<Buffer>): MailOutbox {
  return {
    async get(mailId) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.mail(mailId), ConsistentRead: true }));
      const item = out.Item;
      if (!item) return undefined;
      const kind = item.kind as MailKind;
      if (item.status !== 'pending' || typeof item.bodySealed !== 'string') return { status: outcomeOf(item.status), mailId, kind };
      const body = JSON.parse(unseal(item.bodySealed, await mailKey(), keys.mail(mailId).PK)) as Sealed;
      return { status: 'pending' as const, mailId, kind, ...body, ...(typeof item.claimUntil === 'string' ? { claimUntil: item.claimUntil } : {}) };
    },
    /**
     * Claims the sending (a lease) and checks, in the same transaction, that the recipient is not
     * suppressed (./mail-suppressions.ts): 'busy' when another worker holds a live lease or the
     * message is over, 'suppressed' when the address is (nothing written either way).
     */
    async claim(mailId, now, until, to) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: keys.mail(mailId),
                  UpdateExpression: 'SET claimUntil = :until',
                  ConditionExpression: '#status = :pending AND (attribute_not_exists(claimUntil) OR claimUntil < :now)',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':until': until.toISOString(), ':now': now.toISOString(), ':pending': 'pending' },
                },
              },
              stripped(notSuppressedCheck(table, to)),
            ],
          }),
        );
        return 'claimed';
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return 'busy';
        if (reasons?.[1]?.Code === 'ConditionalCheckFailed') return 'suppressed';
        throw err;
      }
    },
    /** Sent, skipped (no sender configured) or not delivered (suppressed, rejected: with why): the sealed text is removed, the outcome kept until the item expires. */
    async finish(mailId, outcome) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.mail(mailId),
            UpdateExpression: `SET #status = :status, finishedAt = :at${outcome.messageId ? ', messageId = :mid' : ''}${outcome.reason ? ', notDeliveredWhy = :why' : ''} REMOVE bodySealed, claimUntil`,
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':status': outcome.status,
              ':at': outcome.at,
              ':pending': 'pending',
              ...(outcome.messageId ? { ':mid': outcome.messageId } : {}),
              ...(outcome.reason ? { ':why': outcome.reason.slice(0, 300) } : {}),
            },
          }),
        );
      } catch (err) {
        // Over already (a duplicate message finished it first): nothing to record.
        if (!isConditionalCheckFailed(err)) throw err;
      }
    },
  };
}
