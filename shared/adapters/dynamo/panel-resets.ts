import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PasswordReset } from '../../domain/panel/reset';
import type { PanelResets } from '../../ports/panel';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { mailWrite } from './mail-outbox';
import { commitWrites } from './transact';
import { cancellationReasons } from './contention';

/** A reset link's item is deleted by TTL a day after it stopped working. */
const KEPT_AFTER_EXPIRY_SECONDS = 24 * 60 * 60;

function resetItem(reset: PasswordReset): Item {
  return {
    ...keys.panelReset(reset.tokenHash),
    type: 'panel_reset',
    ...reset,
    ttl: Math.floor(Date.parse(reset.expiresAt) / 1000) + KEPT_AFTER_EXPIRY_SECONDS,
  };
}

function resetOf(item: Item): PasswordReset | undefined {
  const { tokenHash, personId, accountId, email, requestedBy, createdAt, expiresAt } = item;
  const texts = [tokenHash, personId, accountId, email, requestedBy, createdAt, expiresAt];
  if (!texts.every((value) => typeof value === 'string')) return undefined;
  return { tokenHash, personId, accountId, email, requestedBy, createdAt, expiresAt } as PasswordReset;
}

/** The reset links, each stored with its mail queued (sealed under the mail key) in one transaction. */
export function dynamoPanelResets(db: Db, table: string, mailKey: () => Promise<Buffer>): PanelResets {
  return {
    async create(reset, mail) {
      await commitWrites(db, [
        { Put: { TableName: table, Item: resetItem(reset), ConditionExpression: 'attribute_not_exists(PK)' } },
        mailWrite(table, mail, await mailKey()),
      ]);
    },
    async get(tokenHash) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelReset(tokenHash), ConsistentRead: true }));
      return out.Item ? resetOf(out.Item) : undefined;
    },
    async complete(reset, person, passwordHash, at) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Delete: { TableName: table, Key: keys.panelReset(reset.tokenHash), ConditionExpression: 'attribute_exists(PK)' } },
              {
                Update: {
                  TableName: table,
                  Key: keys.panelPerson(person.email),
                  UpdateExpression: 'SET sessionsValidFrom = :at, passwordHash = :hash, passwordChangedAt = :at',
                  ConditionExpression: 'personId = :id AND passwordHash = :old',
                  ExpressionAttributeValues: { ':at': at, ':hash': passwordHash, ':id': person.personId, ':old': person.passwordHash },
                },
              },
            ],
          }),
        );
        return true;
      } catch (err) {
        if ((cancellationReasons(err) ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
        throw err;
      }
    },
  };
}
