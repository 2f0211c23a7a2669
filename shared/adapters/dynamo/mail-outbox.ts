import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seal, unseal } from '../../crypto/personal-data';
import type { MailKind, OutgoingMail } from '../../domain/panel/mail';
import type { MailOutbox } from '../../ports/mail';
import { sweepIndexAttributes } from '../../events/sweep-index';
import { type Db, isConditionalCheckFailed } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';

/** The item type of a queued message (`type` attribute): the stream forwards its INSERT to the mail queue. */
export const MAIL_ITEM_TYPE = 'mail';

/** A message is kept this long (sent or not): the operator's look at what was sent; its text is removed once sent. */
const MAIL_KEPT_SECONDS = 7 * 24 * 60 * 60;

type Sealed = { to: string; subject: string; text: string };

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
      if (item.status !== 'pending' || typeof item.bodySealed !== 'string') return { status: item.status === 'skipped' ? 'skipped' : 'sent', mailId, kind };
      const body = JSON.parse(unseal(item.bodySealed, await mailKey(), keys.mail(mailId).PK)) as Sealed;
      return { status: 'pending' as const, mailId, kind, ...body, ...(typeof item.claimUntil === 'string' ? { claimUntil: item.claimUntil } : {}) };
    },
    /** Claims the sending (a lease): false when another worker holds a live lease, or it was sent meanwhile. */
    async claim(mailId, now, until) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.mail(mailId),
            UpdateExpression: 'SET claimUntil = :until',
            ConditionExpression: '#status = :pending AND (attribute_not_exists(claimUntil) OR claimUntil < :now)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':until': until.toISOString(), ':now': now.toISOString(), ':pending': 'pending' },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionalCheckFailed(err)) return false;
        throw err;
      }
    },
    /** Sent (or skipped: no sender configured): the sealed text is removed, the outcome kept until the item expires. */
    async finish(mailId, outcome) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.mail(mailId),
            UpdateExpression: `SET #status = :status, finishedAt = :at${outcome.messageId ? ', messageId = :mid' : ''} REMOVE bodySealed, claimUntil`,
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':status': outcome.status,
              ':at': outcome.at,
              ':pending': 'pending',
              ...(outcome.messageId ? { ':mid': outcome.messageId } : {}),
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
