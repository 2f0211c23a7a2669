import type { WebhookEventType } from '../../domain/webhooks';
import type { PanelAccessPorts } from './access-ports';
import { actingPerson, auditedChange as audited, stepUp } from './acting';
import { configureWebhook, type ConfigureWebhookPorts, rotateWebhookSecret } from '../webhooks/configure-webhook';
import { mayAct } from '../../domain/panel/roles';
import type { PanelSession } from '../../domain/panel/session';
import type { WebhookDelivery } from '../../domain/webhooks';
import { sendTestEvent } from '../webhooks/send-test-event';
import { type RedeliverPorts, redeliverWebhook } from '../webhooks/redeliver-webhook';
import type { OutboxEvent } from '../../domain/changes';

import { DELIVERIES_SHOWN } from '../../ports/webhooks';

export type PanelWebhookPorts = PanelAccessPorts &
  ConfigureWebhookPorts &
  RedeliverPorts & {
    /** The account's webhook as configured: its URL, and whether a signing secret exists (never the secret). */
    webhookOf: (accountId: string) => Promise<{ url?: string; secretConfigured: boolean; events?: readonly WebhookEventType[] }>;
    /** GET /api/webhook/deliveries' read: the account's latest deliveries, newest first. */
    deliveries: (accountId: string, limit: number) => Promise<WebhookDelivery[]>;
    newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent;
  };

export type WebhookView = { url?: string; secretConfigured: boolean; mayManage: boolean; deliveries: WebhookDelivery[] };

export async function webhookView(ports: PanelWebhookPorts, session: PanelSession): Promise<WebhookView> {
  const person = await actingPerson(ports, session, 'read');
  const [webhook, deliveries] = await Promise.all([ports.webhookOf(session.accountId), ports.deliveries(session.accountId, DELIVERIES_SHOWN)]);
  return { ...webhook, mayManage: mayAct(person.role, 'webhooks.manage'), deliveries };
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
  // The panel's form sets the URL only: the subscription made through the API is kept.
  const { secretConfigured, events } = await ports.webhookOf(person.accountId);
  const { answer, changes } = await configureWebhook(ports, { accountId: person.accountId, url: input.url, events, secretConfigured, now: input.now });
  return { answer, changes: [...changes, audited(ports, person, 'webhook.configured', `URL ${answer.url}`, input.ip, input.now)] };
}

/** A new signing secret from the panel: the role, a fresh code, then the API's rotation (shown once), with the audit entry. */
export async function rotateWebhookSecretInPanel(ports: PanelWebhookPorts, input: Acting) {
  const person = await actingPerson(ports, input.session, 'webhooks.manage');
  await stepUp(ports, person, input);
  const { answer, changes } = rotateWebhookSecret(ports, { accountId: person.accountId, now: input.now });
  return {
    answer,
    changes: [...changes, audited(ports, person, 'webhook.secret_rotated', 'novo segredo de assinatura; o anterior parou na hora', input.ip, input.now)],
  };
}

/** A ping from the panel (no step-up: it changes nothing but sends one test event): POST /api/webhook/test's use case, audited. */
export async function sendTestEventInPanel(ports: PanelWebhookPorts, input: { session: PanelSession; ip: string; now: Date }) {
  const person = await actingPerson(ports, input.session, 'webhooks.manage');
  const { url } = await ports.webhookOf(person.accountId);
  const { answer, changes } = sendTestEvent(ports, { accountId: person.accountId, webhookConfigured: url !== undefined, now: input.now });
  return { answer, changes: [...changes, audited(ports, person, 'webhook.test_sent', `evento ${answer.event_id}`, input.ip, input.now)] };
}

/**
 * A redelivery of one of the account's events from the panel (no step-up: it sends again what was
 * recorded, and changes nothing else): the operator's `webhook redeliver` use case, scoped to the
 * session's account (another account's event is unknown: 404), audited in the same transaction.
 */
export async function redeliverWebhookInPanel(ports: PanelWebhookPorts, input: { session: PanelSession; eventId: string; ip: string; now: Date }) {
  const person = await actingPerson(ports, input.session, 'webhooks.manage');
  const { answer, changes } = await redeliverWebhook(ports, input.eventId, person.accountId);
  return { answer, changes: [...changes, audited(ports, person, 'webhook.redelivered', `evento ${answer.event_id}`, input.ip, input.now)] };
}
