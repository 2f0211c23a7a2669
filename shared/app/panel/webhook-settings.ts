import type { PanelAccessPorts } from './access-ports';
import { actingPerson, stepUp } from './acting';
import { configureWebhook, type ConfigureWebhookPorts, rotateWebhookSecret } from '../webhooks/configure-webhook';
import type { Change } from '../../domain/changes';
import type { AuditEntry } from '../../domain/panel/audit';
import { mayAct } from '../../domain/panel/roles';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';

export type PanelWebhookPorts = PanelAccessPorts &
  ConfigureWebhookPorts & {
    /** The account's webhook as configured: its URL, and whether a signing secret exists (never the secret). */
    webhookOf: (accountId: string) => Promise<{ url?: string; secretConfigured: boolean }>;
  };

export type WebhookView = { url?: string; secretConfigured: boolean; mayManage: boolean };

export async function webhookView(ports: PanelWebhookPorts, session: PanelSession): Promise<WebhookView> {
  const person = await actingPerson(ports, session, 'read');
  return { ...(await ports.webhookOf(session.accountId)), mayManage: mayAct(person.role, 'webhooks.manage') };
}

function audited(ports: Pick<PanelAccessPorts, 'newId'>, person: PanelPerson, action: string, detail: string, ip: string, now: Date): Change {
  const entry: AuditEntry = { accountId: person.accountId, at: now.toISOString(), entryId: ports.newId('aud'), personId: person.personId, email: person.email, action, detail, ip };
  return { kind: 'panel.audited', entry };
}

type Acting = { session: PanelSession; code: string; ip: string; now: Date };

/**
 * The webhook URL from the panel: the role, a fresh code (step-up), then PUT /api/webhook's own use case
 * (the same SSRF rules; the first configuration creates the secret, shown once), its changes committed
 * with the audit entry.
 */
export async function configureWebhookInPanel(ports: PanelWebhookPorts, input: Acting & { url: string }) {
  const person = await actingPerson(ports, input.session, 'webhooks.manage');
  await stepUp(ports, person, input);
  const { secretConfigured } = await ports.webhookOf(person.accountId);
  const { answer, changes } = await configureWebhook(ports, { accountId: person.accountId, url: input.url, secretConfigured, now: input.now });
  return { answer, changes: [...changes, audited(ports, person, 'webhook.configured', `URL ${answer.url}`, input.ip, input.now)] };
}

/** A new signing secret from the panel: the role, a fresh code, then the API's rotation (shown once), with the audit entry. */
export async function rotateWebhookSecretInPanel(ports: PanelWebhookPorts, input: Acting) {
  const person = await actingPerson(ports, input.session, 'webhooks.manage');
  await stepUp(ports, person, input);
  const { answer, changes } = rotateWebhookSecret(ports, { accountId: person.accountId, now: input.now });
  return { answer, changes: [...changes, audited(ports, person, 'webhook.secret_rotated', 'novo segredo de assinatura; o anterior parou na hora', input.ip, input.now)] };
}
