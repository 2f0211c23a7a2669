import type { DeliverPorts } from '../app/webhooks/deliver-webhook';
import { type PostLimits, postWebhook } from '../adapters/webhooks/deliver';
import { checkWebhookUrl } from '../adapters/webhooks/url-policy';
import type { Runtime } from './runtime';
import { signatureHeader } from '../domain/hmac-header';

export type { PostLimits };

/**
 * The webhook sender's POST (the `post` port of deliverWebhook), built from the runtime: each attempt
 * checks and resolves the URL again (DNS rebinding), then POSTs the signed body to that address.
 */
export function webhookPost(runtime: Runtime, limits: PostLimits): DeliverPorts['post'] {
  return async (url, body, eventId, secret) => {
    const { allowPrivateHosts, dnsTimeoutMs } = runtime.config.webhooks;
    const checked = await checkWebhookUrl(url, { resolve: runtime.resolve, allowPrivateHosts, dnsTimeoutMs });
    if (!checked.ok) return { ok: false, status: null, error: `blocked: ${checked.errors.join('; ')}`.slice(0, 200) };
    const address = checked.addresses[0] ?? '';
    return postWebhook({
      ...limits,
      url: checked.url,
      address,
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Service-Webhooks/1.0',
        'Service-Event-Id': eventId,
        'Service-Signature': signatureHeader(body, secret, Math.floor(runtime.clock.now().getTime() / 1000)),
      },
    });
  };
}
