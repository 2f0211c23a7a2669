import { providerRoutes as routes } from '../../shared/http/route-table/provider';
import { parseConfig } from '../../shared/platform/config';
import { systemClock } from '../../shared/ports/clock';
import { type PixReconciliation, reconcilePixInvoice } from '../../shared/app/invoices/reconcile-pix-invoice';
import { reconcileStatement, type StatementCheck } from '../../shared/app/invoices/pix-statement';
import type { StatementWindow } from '../../shared/domain/pix-statement';
import { pixSweepWorker } from '../../shared/platform/queues';
import { pixLookupPorts } from '../../shared/wiring/invoices';
import { invoiceProvider } from '../../shared/domain/invoice';
import { API_PIX_PROVIDER, type ApiPixProvider, apiPixProvider } from '../../shared/adapters/providers/apipix/adapter';
import { pixCallbackUrl } from '../../shared/adapters/providers/apipix/callback-url';
import type { Runtime } from '../../shared/wiring/runtime';
import { apiPixCredentialsSource } from '../../shared/adapters/secrets/apipix-credentials';
import { dnsResolver } from '../../shared/adapters/webhooks/dns';
import type { Target } from './target';

/** The operator's runtime against the target's table, configured for its API Pix PSP. */
async function apiPixRuntime(target: Target): Promise<{ runtime: Runtime; provider: ApiPixProvider }> {
  const psp = await target.apiPix();
  const config = parseConfig({
    TABLE_NAME: target.table,
    MASTER_KEY_SECRET_ID: 'operator-cli',
    PAYMENT_PROVIDER: API_PIX_PROVIDER,
    APIPIX_BASE_URL: psp.baseUrl,
    APIPIX_TOKEN_URL: psp.tokenUrl,
    APIPIX_CLIENT_ID: psp.clientId,
    APIPIX_PIX_KEY: psp.pixKey,
    APIPIX_SECRET_ID: psp.secretId,
    PROVIDER_TIMEOUT_MS: process.env.PROVIDER_TIMEOUT_MS,
  });
  const runtime: Runtime = {
    config,
    db: target.db,
    clock: systemClock,
    serviceKeys: target.serviceKeys,
    edgeSecret: async () => undefined,
    resolve: dnsResolver,
  };
  return { runtime, provider: apiPixProvider(config, apiPixCredentialsSource(psp.secretId, psp.secrets)) };
}

/**
 * Runs `work` with whatever it logs sent to stderr: the command's one JSON object is the only line on
 * stdout (the service's logger and metrics write to stdout, as Lambda wants).
 */
async function loggingToStderr<T>(work: () => Promise<T>): Promise<T> {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    return await work();
  } finally {
    process.stdout.write = write;
  }
}

/**
 * `provider reconcile --txid T`: reads the charge back from its PSP (GET /cob/{txid}) and applies what
 * the PSP holds, as a callback would (a payment of the invoice total, a full refund, the removal of an
 * unpaid charge); anomalies are listed, never credited.
 */
export async function reconcilePixCharge(target: Target, txid: string): Promise<PixReconciliation> {
  const { runtime, provider } = await apiPixRuntime(target);
  const ports = pixLookupPorts(runtime, routes.providerPixCallback);
  const invoice = await ports.invoices.byTxid(txid);
  if (!invoice) throw new Error(`No Pix invoice has the txid ${txid}`);
  const owner = invoiceProvider(invoice, 'simulated');
  if (owner !== provider.name) throw new Error(`The charge ${txid} was created by the ${owner} provider, not ${provider.name}`);
  return loggingToStderr(() => reconcilePixInvoice(ports, invoice, provider, new Date()));
}

/**
 * `provider reconcile --from ISO --to ISO`: reads the PSP's statement of Pix received in the window (API
 * Pix GET /pix, every page) and checks each Pix against the ledger, as the Pix sweep does: a payment
 * with no ledger entry is read back and recorded; a Pix that paid no charge, or one still unrecorded,
 * is counted (and logged on stderr).
 */
export async function reconcileReceivedPix(
  target: Target,
  window: StatementWindow,
): Promise<{ provider: string; from: string; to: string } & StatementCheck & { pages: number }> {
  const { runtime, provider } = await apiPixRuntime(target);
  const ports = pixLookupPorts(runtime, pixSweepWorker);
  const checked = await loggingToStderr(() => reconcileStatement(ports, provider, window, new Date()));
  return { provider: provider.name, from: window.from.toISOString(), to: window.to.toISOString(), ...checked };
}

/** The registered URL with its path token hidden (the token is the callbacks' path secret). */
function maskedCallbackUrl(url: string): string {
  return url.replace(/\/notifications\/([^/]{4})[^/]*$/, '/notifications/$1…');
}

/**
 * `provider register-webhook`: PUT /webhook/{chave} at the PSP with the gateway's callback URL
 * (`<ApiUrl>/provider/apipix/notifications/<token>`; the PSP appends /pix), then reads it back.
 */
export async function registerPixWebhook(target: Target): Promise<{ provider: string; chave: string; webhook_url: string; registered: boolean }> {
  const [{ provider }, api, keys] = await Promise.all([apiPixRuntime(target), target.api(), target.serviceKeys()]);
  const url = pixCallbackUrl(api.baseUrl, keys.providerCallbacks, provider.name);
  await provider.registerWebhook(url);
  const registered = (await provider.registeredWebhook()) === url;
  return { provider: provider.name, chave: provider.pixKey, webhook_url: maskedCallbackUrl(url), registered };
}
