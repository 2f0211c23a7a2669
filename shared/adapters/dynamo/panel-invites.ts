import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mailWrite } from './mail-outbox';
import { commitWrites } from './transact';
import type { PanelInvite } from '../../domain/panel/invite';
import { isPanelRole } from '../../domain/panel/roles';
import type { PanelEmails, PanelInvites } from '../../ports/panel';
import type { Db, Item } from './dynamo';
import { keys } from './keys';

/** The item of an invite: its fields, and DynamoDB's TTL removing it a day after it expired. */
function inviteItem(invite: PanelInvite): Item {
  return { ...keys.panelInvite(invite.tokenHash), type: 'panel_invite', ...invite, ttl: Math.floor(Date.parse(invite.expiresAt) / 1000) + 86_400 };
}

function inviteOf(item: Item): PanelInvite | undefined {
  const { tokenHash, accountId, email, role, invitedBy, createdAt, expiresAt } = item;
  if (typeof tokenHash !== 'string' || typeof accountId !== 'string' || typeof email !== 'string' || !isPanelRole(role)) return undefined;
  if (typeof invitedBy !== 'string' || typeof createdAt !== 'string' || typeof expiresAt !== 'string') return undefined;
  return { tokenHash, accountId, email, role, invitedBy, createdAt, expiresAt };
}

/** The invites, each stored with its mail queued (sealed under the mail key) in one transaction. */
export function dynamoPanelInvites(db: Db, table: string, mailKey: () => Promise<Buffer>): PanelInvites {
  return {
    async create(invite, mail) {
      await commitWrites(db, [
        { Put: { TableName: table, Item: inviteItem(invite), ConditionExpression: 'attribute_not_exists(PK)' } },
        mailWrite(table, mail, await mailKey()),
      ]);
    },
    async get(tokenHash) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelInvite(tokenHash), ConsistentRead: true }));
      return out.Item ? inviteOf(out.Item) : undefined;
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
