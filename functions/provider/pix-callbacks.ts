import { DomainError, NotFoundError, UpstreamError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { providerRoutes as routes } from '../../shared/http/route-table/provider';
import { invoiceByTxid } from '../../shared/invoices/lookup';
import { reconcilePixInvoice } from '../../shared/invoices/reconcile-pix';
import { invoiceProviderName } from '../../shared/invoices/record';
import { logger } from '../../shared/logger';
import { pixCallbackTokenMatches } from '../../shared/providers/apipix/callback-url';
import { callbackTxids, pixCallbackSchema } from '../../shared/providers/apipix/cob';
import { ProviderError, type PixProvider } from '../../shared/providers/port';
import { pixProvider, UnknownAdapterError } from '../../shared/providers/registry';
import type { Runtime } from '../../shared/runtime';

/** Charges read back from the PSP at once for one callback. */
const LOOKUPS_AT_ONCE = 8;

/** The provider the path names: one that reads charges back (API Pix); any other name → 404. */
function lookingUpProvider(runtime: Runtime, name: string): PixProvider {
  try {
    const provider = pixProvider(runtime.config, name);
    if (provider.lookupPixCharge) return provider;
  } catch (err) {
    if (!(err instanceof UnknownAdapterError)) throw err;
  }
  throw new NotFoundError('Unknown provider');
}

function parsedCallback(raw: string) {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new DomainError('invalid', 'The callback is not JSON', 'invalid_notification');
  }
  const callback = pixCallbackSchema.safeParse(json);
  if (!callback.success) throw new DomainError('invalid', 'Not an API Pix callback ({"pix":[…]})', 'invalid_notification');
  return callback.data;
}

/** Runs `work` over `items`, at most `width` at a time; the first failure fails the whole (the rest still settle). */
async function inBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return results;
}

/**
 * POST /provider/{name}/notifications/{token}/pix: an API Pix PSP's callback. The path token is
 * checked first (wrong: 401, counted per IP); then each charge of this gateway and this provider the
 * callback names is read back from the PSP and what the PSP holds is applied (shared/invoices/
 * reconcile-pix.ts). A txid the gateway does not know, or a charge of another provider, is skipped
 * without asking the PSP. A failed lookup answers 502: the PSP sends the callback again.
 */
export const handler = httpHandler(routes.providerPixCallback, async ({ params, event, runtime, now }) => {
  const provider = lookingUpProvider(runtime, params.name);
  const keys = await runtime.serviceKeys();
  if (!pixCallbackTokenMatches(keys.providerCallbacks, provider.name, params.token)) {
    throw new DomainError('unauthorized', 'Wrong callback path token', 'invalid_signature');
  }
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  const txids = callbackTxids(parsedCallback(raw));
  const invoices = (await inBatches(txids, LOOKUPS_AT_ONCE, (txid) => invoiceByTxid(runtime, txid))).filter(
    (item) => item !== undefined && invoiceProviderName(item, runtime.config.payments.provider) === provider.name,
  );
  if (invoices.length < txids.length)
    logger.warn('callback names charges this provider did not create here: skipped', { skipped: txids.length - invoices.length });
  try {
    const results = await inBatches(invoices, LOOKUPS_AT_ONCE, (item) => reconcilePixInvoice(runtime, item as NonNullable<typeof item>, now));
    return { status: 200, body: { received: true as const, charges: results.length, applied: results.reduce((sum, r) => sum + r.applied.length, 0) } };
  } catch (err) {
    if (err instanceof ProviderError) throw new UpstreamError('upstream_failed', 'The PSP failed to answer a charge lookup; send the callback again.');
    throw err;
  }
});
