import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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

export function dynamoPanelInvites(db: Db, table: string): PanelInvites {
  return {
    async create(invite) {
      await db.send(new PutCommand({ TableName: table, Item: inviteItem(invite), ConditionExpression: 'attribute_not_exists(PK)' }));
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
