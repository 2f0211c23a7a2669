import type { UrlCheck } from '../app/webhooks/configure-webhook';
import type { Runtime } from './runtime';
import { checkWebhookUrl } from '../adapters/webhooks/url-policy';

/** A webhook URL checked against the SSRF rules with the runtime's DNS and settings (PUT /api/webhook and the panel's webhook form); its own module, so the
 * webhook routes that check no URL bundle no SSRF rules. */
export function webhookUrlCheck(runtime: Runtime): (url: string) => Promise<UrlCheck> {
  const { allowPrivateHosts, dnsTimeoutMs } = runtime.config.webhooks;
  return async (url) => {
    const checked = await checkWebhookUrl(url, { resolve: runtime.resolve, allowPrivateHosts, dnsTimeoutMs });
    return checked.ok ? { ok: true, url: checked.url.toString() } : { ok: false, errors: checked.errors };
  };
}
