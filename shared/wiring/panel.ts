import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../adapters/dynamo/dynamo';
import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoPanelEmails, dynamoPanelInvites } from '../adapters/dynamo/panel-invites';
import type { InvitePorts } from '../app/panel/invite-person';
import type { PanelSessionPorts } from '../app/panel/access-ports';
import { matchTotp, newTotpSecret, otpauthUri } from '../adapters/crypto/totp';
import { matchOnTotpClock } from '../adapters/crypto/totp-clock';
import { dynamoPanelAuditLog, dynamoPanelPeople, dynamoPanelSessions } from '../adapters/dynamo/panel-people';
import { dynamoAttemptSlots } from '../adapters/dynamo/attempt-slots';
import { seal, unseal } from '../platform/crypto/personal-data';
import { randomString } from '../platform/ids';
import type { Runtime } from './runtime';

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
export function panelInvitePorts(db: Db, table: string, mailKey: () => Promise<Buffer>): InvitePorts {
  const accounts = dynamoAccountDirectory(db, table);
  return {
    accountActive: async (accountId) => {
      const account = await accounts.get(accountId);
      return account !== undefined && !account.disabled;
    },
    invites: dynamoPanelInvites(db, table, mailKey),
    emails: dynamoPanelEmails(db, table),
    newToken: newPanelToken,
    newMailId: () => `mail_${randomString(24)}`,
  };
}

/** The issuer authenticator apps show beside the person's e-mail. */
export const PANEL_TOTP_ISSUER = 'Painel Gateway';

/**
 * How typed codes are matched: at the real clock (always in AWS), or on the local stack at the real
 * clock plus the authenticator's test offset (LOCAL_TOTP_CLOCK_DIR, refused outside the local stack).
 */
export function totpMatch(localTotpClockDir: string | undefined): typeof matchTotp {
  return localTotpClockDir === undefined ? matchTotp : matchOnTotpClock(localTotpClockDir);
}

/**
 * The panel's access ports over the table, the panel key (sealing) and the crypto adapters, without
 * the password hashing (shared/wiring/panel-access.ts adds it): what signed-in pages and a step-up need.
 */
export async function panelSessionPorts(runtime: Runtime): Promise<PanelSessionPorts> {
  const { db, config } = runtime;
  const table = config.tableName;
  const { panel: key, mail: mailKey } = await runtime.serviceKeys();
  return {
    invites: dynamoPanelInvites(db, table, async () => mailKey),
    people: dynamoPanelPeople(db, table),
    sessions: dynamoPanelSessions(db, table, async () => mailKey),
    attempts: dynamoAttemptSlots(db, table),
    audit: dynamoPanelAuditLog(db, table),
    totp: {
      newSecret: newTotpSecret,
      match: totpMatch(config.localTotpClockDir),
      uri: (secret, email) => otpauthUri({ secret, accountLabel: email, issuer: PANEL_TOTP_ISSUER }),
    },
    sealing: {
      seal: (secret, boundTo) => seal(secret, key, boundTo),
      unseal: (sealed, boundTo) => {
        try {
          return unseal(sealed, key, boundTo);
        } catch {
          return undefined;
        }
      },
    },
    tokens: { newToken: newPanelToken, hash: tokenHash },
    newId: (prefix) => `${prefix}_${randomString(24)}`,
  };
}
