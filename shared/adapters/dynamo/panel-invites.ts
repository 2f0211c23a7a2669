import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mailWrite } from './mail-outbox';
import { stripped, type TxWrite } from './transact';
import type { PanelEmails, PanelInvites } from '../../ports/panel';
import { cancellationReasons } from './contention';
import type { Db } from './dynamo';
import { keys } from './keys';
import { auditItem } from './panel-people';
import { entryItem, inviteEntryDelete, inviteItem, inviteLinkDelete, inviteOf, inviterCheck } from './panel-invite-items';

/** How many times a new invite reads the e-mail's live invite again when another replaced it meanwhile. */
const REPLACE_ATTEMPTS = 3;

/** The invites, each stored with its mail queued (sealed under the mail key) in one transaction. */
export function dynamoPanelInvites(db: Db, table: string, mailKey: () => Promise<Buffer>): PanelInvites {
  const entryOf = async (accountId: string, email: string) => {
    const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelInviteEntry(accountId, email), ConsistentRead: true }));
    return out.Item ? inviteOf(out.Item) : undefined;
  };
  return {
    async create(invite, mail) {
      const sealedMail = mailWrite(table, mail, await mailKey());
      for (let attempt = 1; ; attempt += 1) {
        const earlier = await entryOf(invite.accountId, invite.email);
        const checks = inviterCheck(table, invite);
        const writes: TxWrite[] = [
          {
            Put: {
              TableName: table,
              // The live invite names the mail that carries its link: the team page reads whether it was delivered.
              Item: entryItem({ ...invite, mailId: mail.id }),
              // In place of the live invite as read (a concurrent one for the e-mail: read again).
              ...(earlier
                ? { ConditionExpression: 'tokenHash = :earlier', ExpressionAttributeValues: { ':earlier': earlier.tokenHash } }
                : { ConditionExpression: 'attribute_not_exists(PK)' }),
            },
          },
          { Put: { TableName: table, Item: inviteItem(invite), ConditionExpression: 'attribute_not_exists(PK)' } },
          sealedMail,
          ...checks,
          ...(earlier ? [inviteLinkDelete(table, earlier.tokenHash)] : []),
        ];
        try {
          await db.send(new TransactWriteCommand({ TransactItems: writes.map(stripped) }));
          return 'created';
        } catch (err) {
          const reasons = cancellationReasons(err);
          if (checks.length > 0 && reasons?.[3]?.Code === 'ConditionalCheckFailed') return 'inviter_changed';
          if (reasons?.[0]?.Code === 'ConditionalCheckFailed' && attempt < REPLACE_ATTEMPTS) continue;
          throw err;
        }
      }
    },
    async get(tokenHash) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelInvite(tokenHash), ConsistentRead: true }));
      const invite = out.Item ? inviteOf(out.Item) : undefined;
      if (!invite) return undefined;
      // Only the e-mail's live invite: a replaced or revoked one (or one from before the entries) leads nowhere.
      const live = await entryOf(invite.accountId, invite.email);
      return live?.tokenHash === tokenHash ? invite : undefined;
    },
    async pending(accountId) {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.panelInviteEntry(accountId, '').PK },
          ConsistentRead: true,
          Limit: 200,
        }),
      );
      return (out.Items ?? []).flatMap((item) => {
        const invite = inviteOf(item);
        return invite && invite.accountId === accountId ? [invite] : [];
      });
    },
    async revoke(invite, audit) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              stripped(inviteEntryDelete(table, invite)),
              stripped(inviteLinkDelete(table, invite.tokenHash)),
              { Put: { TableName: table, Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(PK)' } },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') return false;
        throw err;
      }
    },
  };
}

export function dynamoPanelEmails(db: Db, table: string): PanelEmails {
  return {
    async taken(email) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelPerson(email), ConsistentRead: true, ProjectionExpression: 'PK' }));
      return out.Item !== undefined;
    },
  };
}
