import { DomainError, NotFoundError, UpstreamError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { providerRoutes as routes } from '../../shared/http/route-table/provider';
import { reconcilePixInvoice } from '../../shared/app/invoices/reconcile-pix-invoice';
import { type Invoice, pixProviderOf } from '../../shared/domain/invoice';
import { pixLookupPorts } from '../../shared/wiring/invoices';
import { closingRails } from '../../shared/wiring/rails';
import { logger } from '../../shared/platform/logger';
import { callbackTxids, pixCallbackSchema, pixCallbackTokenMatches } from '../../shared/wiring/pix-callbacks';
import { type LookingUpPixProvider, looksUpCharges, ProviderError } from '../../shared/ports/payment-provider';
import { namedPixProvider } from '../../shared/wiring/provider-registry';
import { forEachBounded } from '../../shared/platform/queue-batch';
import type { Runtime } from '../../shared/wiring/runtime';

/** Throws what the first failed item threw (forEachBounded settles every item first). */
async function rethrowFirst(settled: ReturnType<typeof forEachBounded>): Promise<void> {
  const [first] = await settled;
  if (first) throw first.error;
}

/** Charges read back from the PSP at once for one callback. */
const LOOKUPS_AT_ONCE = 8;

/** The provider the path names: one that reads charges back (API Pix); any other name → 404. */
function lookingUpProvider(runtime: Runtime, name: string): LookingUpPixProvider {
  const provider = namedPixProvider(runtime.config, name);
  if (!provider || !looksUpCharges(provider)) throw new NotFoundError('Unknown provider');
  return provider;
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

/**
 * POST /provider/{name}/notifications/{token}/pix: an API Pix PSP's callback. The path token is
 * checked first (wrong: 401, counted per IP); then each charge of this gateway and this provider the
 * callback names is read back from the PSP and what the PSP holds is applied (shared/app/invoices/
 * reconcile-pix-invoice.ts). A txid the gateway does not know, or a charge of another provider, is skipped
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
  const ports = { ...pixLookupPorts(runtime, routes.providerPixCallback), railsMoved: closingRails(runtime, routes.providerPixCallback) };
  const invoices: Invoice[] = [];
  await rethrowFirst(
    forEachBounded(txids, LOOKUPS_AT_ONCE, async (txid) => {
      const invoice = await ports.invoices.byTxid(txid);
      if (invoice && pixProviderOf(invoice, runtime.config.payments.provider) === provider.name) invoices.push(invoice);
    }),
  );
  if (invoices.length < txids.length)
    logger.warn('callback names charges this provider did not create here: skipped', { skipped: txids.length - invoices.length });
  let applied = 0;
  try {
    // Every charge is tried; a failed lookup then answers 502 (the moves made stand: the PSP's retry finds them made).
    await rethrowFirst(
      forEachBounded(invoices, LOOKUPS_AT_ONCE, async (invoice) => {
        const moves = (await reconcilePixInvoice(ports, invoice, provider, now)).applied.length;
        applied += moves;
      }),
    );
  } catch (err) {
    if (err instanceof ProviderError) throw new UpstreamError('upstream_failed', 'The PSP failed to answer a charge lookup; send the callback again.');
    throw err;
  }
  return { status: 200, body: { received: true as const, charges: invoices.length, applied } };
});
