import type { Change } from '../../domain/changes';
import { SECRET_NOTICE_KEPT, SECRET_NOTICE_NEW, subscribedTypes, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhooks';
import { ValidationError } from '../../domain/errors';

/** A URL checked against the SSRF rules (shared/adapters/webhooks/url-policy.ts): normalized, or the reasons it is refused. */
export type UrlCheck = { ok: true; url: string } | { ok: false; errors: string[] };

export type ConfigureWebhookPorts = {
  checkUrl: (url: string) => Promise<UrlCheck>;
  newSecret: () => string;
};

export type WebhookAnswer = { url: string; events: readonly WebhookEventType[]; secret?: string; secret_notice: string };

/**
 * The event types a PUT subscribes to (issue 29): the ones named, deduplicated, in the registry's order;
 * none named (absent): every type. An unknown type, or an empty list, is a 422 on events.
 */
export function subscriptionOf(events: readonly string[] | undefined): readonly WebhookEventType[] | undefined {
  if (events === undefined) return undefined;
  const unknown = events.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0)
    throw new ValidationError({ events: [`Unknown event type(s): ${unknown.slice(0, 5).join(', ')}; use ${WEBHOOK_EVENT_TYPES.join(', ')}`] });
  if (events.length === 0) throw new ValidationError({ events: ['Name at least one event type, or leave events out to receive every type'] });
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}

/**
 * PUT /api/webhook: sets the URL once it passes the SSRF rules (422 on url otherwise) and the event
 * types it receives (`events`; absent: every type). The first configuration creates the signing secret
 * and shows it once (a concurrent first one conflicts); later updates keep it.
 */
export async function configureWebhook(
  ports: ConfigureWebhookPorts,
  request: { accountId: string; url: string; events?: readonly string[]; secretConfigured: boolean; now: Date },
): Promise<{ answer: WebhookAnswer; changes: Change[] }> {
  const events = subscriptionOf(request.events);
  const checked = await ports.checkUrl(request.url);
  if (!checked.ok) throw new ValidationError({ url: checked.errors });
  const at = request.now.toISOString();
  const change = { kind: 'webhook.configured' as const, accountId: request.accountId, url: checked.url, at, ...(events ? { events } : {}) };
  const shown = { url: checked.url, events: subscribedTypes({ events }) };
  if (request.secretConfigured) return { answer: { ...shown, secret_notice: SECRET_NOTICE_KEPT }, changes: [change] };
  const secret = ports.newSecret();
  return { answer: { ...shown, secret, secret_notice: SECRET_NOTICE_NEW }, changes: [{ ...change, newSecret: secret }] };
}

/** POST /api/webhook/secret/rotate: a new secret, shown once; the old one stops signing at once (none configured: 409). */
export function rotateWebhookSecret(
  ports: { newSecret: () => string },
  request: { accountId: string; now: Date },
): { answer: { secret: string; secret_notice: string }; changes: Change[] } {
  const secret = ports.newSecret();
  return {
    answer: { secret, secret_notice: SECRET_NOTICE_NEW },
    changes: [{ kind: 'webhook.secret_rotated', accountId: request.accountId, secret, at: request.now.toISOString() }],
  };
}
