import type { PanelInvite } from '../../domain/panel/invite';
import { rolesBackingInvite } from '../../domain/panel/invite';
import { isPanelRole } from '../../domain/panel/roles';
import type { Item } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';

/**
 * An invite's items (issue 27, issue 43): its link's item by the token's hash, and the account's live
 * entry for its e-mail; the writes that the invites, the enrollment and the team changes share.
 */

/** DynamoDB's TTL removes an invite's items a day after it expired. */
const ttlOf = (invite: PanelInvite) => Math.floor(Date.parse(invite.expiresAt) / 1000) + 86_400;

/** The item of an invite's link, by its token's hash (what acceptance reads). */
export function inviteItem(invite: PanelInvite): Item {
  return { ...keys.panelInvite(invite.tokenHash), type: 'panel_invite', ...invite, ttl: ttlOf(invite) };
}

/**
 * The account's live invite for the e-mail (issue 43), in the account's invites partition: the team
 * page lists them, a new invite for the e-mail replaces it, and a link works only while it names it.
 */
export function entryItem(invite: PanelInvite): Item {
  return { ...keys.panelInviteEntry(invite.accountId, invite.email), type: 'panel_invite_entry', ...invite, ttl: ttlOf(invite) };
}

export function inviteOf(item: Item): PanelInvite | undefined {
  const { tokenHash, accountId, email, role, invitedBy, inviterEmail, inviterRole, createdAt, expiresAt, mailId } = item;
  if (typeof tokenHash !== 'string' || typeof accountId !== 'string' || typeof email !== 'string' || !isPanelRole(role)) return undefined;
  if (typeof invitedBy !== 'string' || typeof createdAt !== 'string' || typeof expiresAt !== 'string') return undefined;
  return {
    tokenHash,
    accountId,
    email,
    role,
    invitedBy,
    ...(typeof inviterEmail === 'string' ? { inviterEmail } : {}),
    ...(isPanelRole(inviterRole) ? { inviterRole } : {}),
    createdAt,
    expiresAt,
    ...(typeof mailId === 'string' ? { mailId } : {}),
  };
}

/** The live entry deleted, only while it is still this invite's (a newer invite for the e-mail is left alone). */
export function inviteEntryDelete(table: string, invite: PanelInvite): TxWrite {
  return {
    Delete: {
      TableName: table,
      Key: keys.panelInviteEntry(invite.accountId, invite.email),
      ConditionExpression: 'tokenHash = :hash',
      ExpressionAttributeValues: { ':hash': invite.tokenHash },
    },
  };
}

/** The link's own item deleted (unconditionally: the entry's condition is what decides). */
export function inviteLinkDelete(table: string, tokenHash: string): TxWrite {
  return { Delete: { TableName: table, Key: keys.panelInvite(tokenHash) } };
}

/**
 * The check that the person who sent an invite still backs it (shared/domain/panel/invite.ts): the same
 * person, in the account, with one of the roles that back it. None for the operator's invites.
 */
export function inviterCheck(table: string, invite: PanelInvite): TxWrite[] {
  const roles = rolesBackingInvite(invite);
  if (roles === undefined) return [];
  const names = roles.map((_, i) => `:r${i}`);
  return [
    {
      ConditionCheck: {
        TableName: table,
        Key: keys.panelPerson(invite.inviterEmail ?? ''),
        ConditionExpression: `personId = :inviter AND accountId = :account AND #role IN (${names.length > 0 ? names.join(', ') : ':none'})`,
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: {
          ':inviter': invite.invitedBy,
          ':account': invite.accountId,
          ...(names.length > 0 ? Object.fromEntries(roles.map((role, i) => [`:r${i}`, role])) : { ':none': '-' }),
        },
      },
    },
  ];
}
