import type { Change } from '../../domain/changes';
import { SECRET_NOTICE_KEPT, SECRET_NOTICE_NEW } from '../../domain/webhooks';
import { ValidationError } from '../../errors';

/** A URL checked against the SSRF rules (shared/webhooks/url-policy.ts): normalized, or the reasons it is refused. */
export type UrlCheck = { ok: true; url: string } | { ok: false; errors: string[] };

export type ConfigureWebhookPorts = {
  checkUrl: (url: string) => Promise<UrlCheck>;
  newSecret: () => string;
};

export type WebhookAnswer = { url: string; secret?: string; secret_notice: string };

/**
 * PUT /api/webhook: sets the URL once it passes the SSRF rules (422 on url otherwise). The first
 * configuration creates the signing secret and shows it once (a concurrent first one conflicts); later
 * updates keep it.
 */
export async function configureWebhook(
  ports: ConfigureWebhookPorts,
  request: { accountId: string; url: string; secretConfigured: boolean; now: Date },
): Promise<{ answer: WebhookAnswer; changes: Change[] }> {
  const checked = await ports.checkUrl(request.url);
  if (!checked.ok) throw new ValidationError({ url: checked.errors });
  const at = request.now.toISOString();
  const change = { kind: 'webhook.configured' as const, accountId: request.accountId, url: checked.url, at };
  if (request.secretConfigured) return { answer: { url: checked.url, secret_notice: SECRET_NOTICE_KEPT }, changes: [change] };
  const secret = ports.newSecret();
  return { answer: { url: checked.url, secret, secret_notice: SECRET_NOTICE_NEW }, changes: [{ ...change, newSecret: secret }] };
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
