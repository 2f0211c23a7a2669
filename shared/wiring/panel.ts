import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../adapters/dynamo/dynamo';
import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoPanelEmails, dynamoPanelInvites } from '../adapters/dynamo/panel-invites';
import type { InvitePorts } from '../app/panel/invite-person';
import type { PanelAccessPorts } from '../app/panel/access-ports';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../adapters/crypto/password-hash';
import { matchTotp, newTotpSecret, otpauthQrDataUri, otpauthUri } from '../adapters/crypto/totp';
import { dynamoPanelAuditLog, dynamoPanelPeople, dynamoPanelSessions, dynamoSignInFailures, panelCompilers } from '../adapters/dynamo/panel-people';
import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { webhookChanges } from './webhooks';
import { seal, unseal } from '../crypto/personal-data';
import { randomString } from '../ids';
import type { Runtime } from '../runtime';
import type { OverviewPorts } from '../app/panel/overview';
import type { PanelKeysPorts } from '../app/panel/keys';
import type { AccountPagesPorts } from '../app/panel/account-pages';
import { customerPorts } from './customers';
import type { PanelWebhookPorts } from '../app/panel/webhook-settings';
import { newWebhookSecret } from '../webhooks/config';
import { checkWebhookUrl } from '../webhooks/url-policy';
import { dynamoAccountKeys } from '../adapters/dynamo/accounts';
import { ledgerReader } from './ledger';

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

/** The issuer authenticator apps show beside the person's e-mail. */
export const PANEL_TOTP_ISSUER = 'Painel Gateway';

/** The panel's access use cases' ports over the table, the panel key (sealing) and the crypto adapters. */
export async function panelAccessPorts(runtime: Runtime): Promise<PanelAccessPorts> {
  const { db, config } = runtime;
  const table = config.tableName;
  const { panel: key } = await runtime.serviceKeys();
  return {
    invites: dynamoPanelInvites(db, table),
    people: dynamoPanelPeople(db, table),
    sessions: dynamoPanelSessions(db, table),
    failures: dynamoSignInFailures(db, table),
    audit: dynamoPanelAuditLog(db, table),
    passwords: { hash: (password) => hashPassword(password), verify: verifyPassword, burn: burnPasswordCheck },
    totp: {
      newSecret: newTotpSecret,
      match: matchTotp,
      uri: (secret, email) => otpauthUri({ secret, accountLabel: email, issuer: PANEL_TOTP_ISSUER }),
      qrDataUri: otpauthQrDataUri,
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

/** The overview's ports: the ledger as GET /api/balance reads it, the account's name, the people. */
export function panelOverviewPorts(runtime: Runtime): OverviewPorts {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ledger: ledgerReader(runtime),
    accountName: async (accountId) => (await accounts.get(accountId))?.name,
    people: dynamoPanelPeople(runtime.db, runtime.config.tableName),
  };
}

/** The API keys page's ports: the access ports and the account's keys. */
export async function panelKeysPorts(runtime: Runtime): Promise<PanelKeysPorts> {
  return { ...(await panelAccessPorts(runtime)), keys: dynamoAccountKeys({ db: runtime.db, table: runtime.config.tableName, now: () => new Date() }) };
}

/** The webhook page's ports: the access ports, PUT /api/webhook's URL check and secrets, the account's webhook as configured. */
export async function panelWebhookPorts(runtime: Runtime): Promise<PanelWebhookPorts> {
  const { allowPrivateHosts, dnsTimeoutMs } = runtime.config.webhooks;
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ...(await panelAccessPorts(runtime)),
    checkUrl: async (url) => {
      const checked = await checkWebhookUrl(url, { resolve: runtime.resolve, allowPrivateHosts, dnsTimeoutMs });
      return checked.ok ? { ok: true, url: checked.url.toString() } : { ok: false, errors: checked.errors };
    },
    newSecret: newWebhookSecret,
    webhookOf: async (accountId) => {
      const account = await accounts.get(accountId);
      return { ...(account?.webhookUrl ? { url: account.webhookUrl } : {}), secretConfigured: account?.webhookSecretConfigured === true };
    },
  };
}

/** What the panel's webhook forms commit: the webhook's changes and the audit entry, in one transaction. */
export const panelWebhookChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(webhookChanges, panelCompilers);

/** The customers and payment methods pages' ports: the session's, GET /api/customers' store, the account's methods. */
export async function panelAccountPorts(runtime: Runtime): Promise<AccountPagesPorts> {
  const accounts = dynamoAccountDirectory(runtime.db, runtime.config.tableName);
  return {
    ...(await panelAccessPorts(runtime)),
    ...customerPorts(runtime),
    methodsOf: async (accountId) => (await accounts.get(accountId))?.methods ?? [],
  };
}
