import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../adapters/dynamo/dynamo';
import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoPanelEmails, dynamoPanelInvites } from '../adapters/dynamo/panel-invites';
import type { InvitePorts } from '../app/panel/invite-person';

/** The SHA-256 of a link or session token, base64url: what the table keeps in the token's place. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** A new 256-bit token (base64url) and its hash. */
export function newPanelToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: tokenHash(token) };
}

/** The invite use case's ports over the table (the operator CLI; the panel's team page later). */
export function panelInvitePorts(db: Db, table: string): InvitePorts {
  const accounts = dynamoAccountDirectory(db, table);
  return {
    accountActive: async (accountId) => {
      const account = await accounts.get(accountId);
      return account !== undefined && !account.disabled;
    },
    invites: dynamoPanelInvites(db, table),
    emails: dynamoPanelEmails(db, table),
    newToken: newPanelToken,
  };
}
