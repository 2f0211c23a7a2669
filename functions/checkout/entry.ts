import { openCheckout } from '../../shared/app/checkout/open-checkout';
import { parseCheckoutForm } from '../../shared/pages/checkout/form';
import { checkoutPagePath } from '../../shared/checkout/record';
import { ValidationError } from '../../shared/domain/errors';
import { checkoutErrorPage, formBody, seeOther } from '../../shared/http/checkout/browser';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';
import { checkoutEntryChanges, openCheckoutPorts } from '../../shared/wiring/checkout-entry';

/** The local stack serves itself over http on loopback: its payers' callbacks may be local too (never in AWS, where the base URL is https). */
function isLocalStack(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}

/**
 * POST /ext_transfer: the hosted checkout's entry form. Validates every field (422 page listing them),
 * then opens the checkout (shared/app/checkout/open-checkout.ts: the merchant by public key, the
 * account's checks, one checkout per tx_ref or per sale, with its Pix charge) and sends the payer to
 * its page (303).
 */
export const handler = httpHandler(
  routes.checkoutEntry,
  async ({ event, runtime, now }) => {
    const parsed = parseCheckoutForm(formBody(event), { allowLocalCallback: isLocalStack(runtime.config.publicBaseUrl) });
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const serviceKeys = await runtime.serviceKeys();
    const opened = await openCheckout(openCheckoutPorts(runtime), {
      form: parsed.value,
      fields: parsed.fields as Record<string, string>,
      keys: { checkoutSigning: serviceKeys.checkoutSigning, saleKeys: serviceKeys.boletoLinks },
      now,
    });
    return { ...seeOther(checkoutPagePath(opened.reference, serviceKeys.boletoLinks)), changes: opened.changes };
  },
  { errorPage: checkoutErrorPage, changes: checkoutEntryChanges },
);
